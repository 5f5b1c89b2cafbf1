import * as Menu from '@radix-ui/react-dropdown-menu';
import { Plus } from 'lucide-react';
import type { ReactNode } from 'react';
import { Badge } from '@/components/ui/badge';
import { DropdownContent, DropdownItem, DropdownSeparator } from '@/components/ui/dropdown-menu';
import type { OrganizationSummary } from '@sift/contracts';

export interface OrganizationMenuProps {
  trigger: ReactNode;
  triggerClassName: string;
  organizations: OrganizationSummary[];
  selectedId: string | null;
  onSelect(id: string): void;
  onAdd(): void;
  defaultOpen?: boolean;
}

/** The header's organization dropdown: each organization with the user's permission, and 'Add Organization'. */
export default function OrganizationMenu({ trigger, triggerClassName, organizations, selectedId, onSelect, onAdd, defaultOpen }: OrganizationMenuProps) {
  return (
    <Menu.Root defaultOpen={defaultOpen} modal={false}>
      <Menu.Trigger className={triggerClassName}>
        {trigger}
      </Menu.Trigger>
      <DropdownContent>
        {organizations.length === 0 ? (
          <div className="px-3 py-2 text-sm text-slate-500">No organizations available</div>
        ) : (
          organizations.map((organization) => (
            <DropdownItem key={organization.id} onSelect={() => onSelect(organization.id)} className={organization.id === selectedId ? 'bg-slate-50' : undefined}>
              <span className="flex-1 truncate">{organization.name}</span>
              <Badge tone={organization.permission === 'OWNER' ? 'purple' : 'gray'}>{organization.permission}</Badge>
            </DropdownItem>
          ))
        )}
        <DropdownSeparator />
        <DropdownItem onSelect={onAdd}>
          <Plus className="size-4" /> Add Organization
        </DropdownItem>
      </DropdownContent>
    </Menu.Root>
  );
}
