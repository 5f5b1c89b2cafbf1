import * as Menu from '@radix-ui/react-dropdown-menu';
import type { ReactNode } from 'react';
import { cn } from '@/components/ui/cn';

/** Dropdown lists are at most half the viewport high (spec §2) and scroll beyond that. */
export function DropdownContent({ children, className, align = 'start' }: { children: ReactNode; className?: string; align?: 'start' | 'end' }) {
  return (
    <Menu.Portal>
      <Menu.Content
        align={align}
        sideOffset={6}
        className={cn('z-50 max-h-[50vh] min-w-56 overflow-y-auto rounded-lg border border-slate-200 bg-white p-1 shadow-lg', className)}
      >
        {children}
      </Menu.Content>
    </Menu.Portal>
  );
}

export function DropdownItem({ children, onSelect, className }: { children: ReactNode; onSelect(): void; className?: string }) {
  return (
    <Menu.Item onSelect={onSelect} className={cn('flex cursor-pointer items-center gap-2 rounded-md px-3 py-2 text-sm text-slate-800 outline-none data-[highlighted]:bg-slate-100', className)}>
      {children}
    </Menu.Item>
  );
}

export const DropdownSeparator = () => <Menu.Separator className="my-1 h-px bg-slate-100" />;
