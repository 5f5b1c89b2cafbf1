import * as RadixSelect from '@radix-ui/react-select';
import { Check, ChevronDown } from 'lucide-react';
import type { CSSProperties } from 'react';
import { cn } from './cn';

export interface SelectOption<Value extends string> {
  value: Value;
  label: string;
}

interface SelectProps<Value extends string> {
  value: NoInfer<Value> | null;
  onValueChange(value: NoInfer<Value>): void;
  options: readonly SelectOption<Value>[];
  /** Shown while nothing is chosen. */
  placeholder?: string;
  /** The label's `htmlFor`, or an aria-label when no visible label names the control. */
  id?: string;
  'aria-label'?: string;
  disabled?: boolean;
  className?: string;
  /** The open list's height limit; dropdown lists are at most half the viewport high (spec §2). */
  maxHeight?: string;
  minWidth?: number;
}

/** The control's look, shared with the dashboard's other fields: one height, one border, one focus ring. */
export const fieldTrigger =
  'inline-flex h-9 items-center justify-between gap-2 rounded-md border border-slate-300 bg-white px-3 text-sm text-slate-900 hover:border-slate-400 focus-visible:border-slate-500 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-slate-200 disabled:cursor-not-allowed disabled:bg-slate-50 disabled:text-slate-400 data-[placeholder]:text-slate-500';

/**
 * A single choice from a list, on Radix Select: arrow keys, Home/End, typeahead, Enter or Space
 * to choose, Escape to close, and the list scrolls past its height limit.
 */
export function Select<Value extends string>({ value, onValueChange, options, placeholder, id, disabled, className, maxHeight = '50vh', minWidth, ...aria }: SelectProps<Value>) {
  const contentStyle: CSSProperties = { maxHeight: `min(${maxHeight}, var(--radix-select-content-available-height))`, minWidth };
  return (
    <RadixSelect.Root value={value ?? undefined} onValueChange={(next) => onValueChange(next as Value)} disabled={disabled}>
      <RadixSelect.Trigger id={id} aria-label={aria['aria-label']} className={cn(fieldTrigger, className ?? 'w-full')}>
        <span className="truncate">
          <RadixSelect.Value placeholder={placeholder} />
        </span>
        <RadixSelect.Icon>
          <ChevronDown aria-hidden className="size-4 shrink-0 text-slate-500" />
        </RadixSelect.Icon>
      </RadixSelect.Trigger>
      <RadixSelect.Portal>
        <RadixSelect.Content
          position="popper"
          sideOffset={4}
          style={contentStyle}
          className="z-50 w-[var(--radix-select-trigger-width)] overflow-hidden rounded-lg border border-slate-200 bg-white shadow-lg"
        >
          <RadixSelect.Viewport className="p-1">
            {options.map((option) => (
              <RadixSelect.Item
                key={option.value}
                value={option.value}
                className="relative flex cursor-pointer items-center rounded-md py-2 pr-8 pl-3 text-sm text-slate-800 outline-none select-none data-[highlighted]:bg-slate-100 data-[state=checked]:font-medium"
              >
                <RadixSelect.ItemText>{option.label}</RadixSelect.ItemText>
                <RadixSelect.ItemIndicator className="absolute right-2 inline-flex items-center">
                  <Check aria-hidden className="size-4 text-slate-700" />
                </RadixSelect.ItemIndicator>
              </RadixSelect.Item>
            ))}
          </RadixSelect.Viewport>
        </RadixSelect.Content>
      </RadixSelect.Portal>
    </RadixSelect.Root>
  );
}
