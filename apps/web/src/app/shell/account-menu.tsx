import * as Menu from '@radix-ui/react-dropdown-menu';
import type { ReactNode } from 'react';
import { DropdownContent, DropdownItem } from '@/components/ui/dropdown-menu';

export interface AccountMenuProps {
  trigger: ReactNode;
  triggerClassName: string;
  email: string;
  onLogout(): void;
  defaultOpen?: boolean;
}

/** The avatar menu: who is signed in, and 'Log Out'. */
export default function AccountMenu({ trigger, triggerClassName, email, onLogout, defaultOpen }: AccountMenuProps) {
  return (
    <Menu.Root defaultOpen={defaultOpen} modal={false}>
      <Menu.Trigger aria-label="Account menu" className={triggerClassName}>
        {trigger}
      </Menu.Trigger>
      <DropdownContent align="end" className="min-w-40">
        <div className="px-3 py-2 text-xs text-slate-500">{email}</div>
        <DropdownItem onSelect={onLogout}>Log Out</DropdownItem>
      </DropdownContent>
    </Menu.Root>
  );
}
