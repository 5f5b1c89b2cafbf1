import * as RadixTabs from '@radix-ui/react-tabs';
import type { ReactNode } from 'react';
import { cn } from './cn';

/** Tabs on Radix (arrow keys move between triggers, Tab enters the panel). */
export const Tabs = RadixTabs.Root;

export function TabsList({ children, label, className }: { children: ReactNode; label: string; className?: string }) {
  return (
    <RadixTabs.List aria-label={label} className={cn('flex flex-wrap gap-1 border-b border-slate-200', className)}>
      {children}
    </RadixTabs.List>
  );
}

export function TabsTrigger({ value, children, className }: { value: string; children: ReactNode; className?: string }) {
  return (
    <RadixTabs.Trigger
      value={value}
      className={cn(
        '-mb-px inline-flex items-center gap-2 border-b-2 border-transparent px-3 py-2 text-sm font-medium text-slate-600 hover:text-slate-900 rounded-t-md data-[state=active]:border-slate-900 data-[state=active]:text-slate-900',
        className,
      )}
    >
      {children}
    </RadixTabs.Trigger>
  );
}

export function TabsContent({ value, children, className }: { value: string; children: ReactNode; className?: string }) {
  return (
    <RadixTabs.Content value={value} className={cn('pt-4 focus-visible:outline-none', className)}>
      {children}
    </RadixTabs.Content>
  );
}
