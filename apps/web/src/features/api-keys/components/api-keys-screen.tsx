import { Plus } from 'lucide-react';
import { useState } from 'react';
import { NoOrganization } from '@/components/no-organization';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Page } from '@/components/ui/page';
import { Skeleton } from '@/components/ui/skeleton';
import { useCurrentOrganization } from '@/lib/current-organization';
import { messages } from '@/lib/messages';
import { AddApiKeyDialog } from '@/features/api-keys/components/add-api-key-dialog';
import { ApiKeyRow } from '@/features/api-keys/components/api-key-row';
import { DeleteApiKeyDialog } from '@/features/api-keys/components/delete-api-key-dialog';

/** Fixed widths: nothing moves while a row is renamed. Name takes what is left. */
const COLUMNS = [
  { name: 'Name', width: undefined },
  { name: 'API Key', width: '13rem' },
  { name: 'Created At', width: '10rem' },
  { name: 'Created By', width: '8.5rem' },
  { name: 'Permission', width: '11.5rem' },
  { name: 'Actions', width: '6rem' },
];

export function ApiKeysScreen() {
  const { organizationId, organization, permission, status, error, noOrganization } = useCurrentOrganization();
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<{ id: string; name: string } | null>(null);
  const isOwner = permission === 'OWNER';

  /** The server refuses too; this spares members a round trip (spec §5). */
  const asOwner = (action: () => void) => () => (isOwner ? action() : window.alert(messages.onlyOwnersManageKeys));

  if (noOrganization) {
    return (
      <Page title="API Keys">
        <NoOrganization text="No organization selected" />
      </Page>
    );
  }
  return (
    <Page
      title="API Keys"
      actions={
        organizationId ? (
          <Button onClick={asOwner(() => setAdding(true))}>
            <Plus className="size-4" /> Add API Key
          </Button>
        ) : null
      }
    >
      <Card className="overflow-hidden">
        {!organizationId ? (
          <Empty text="No organization selected" />
        ) : status === 'error' ? (
          <p role="alert" className="text-sm text-red-700">{error}</p>
        ) : !organization ? (
          <div className="flex flex-col gap-3" aria-label="Loading API keys">
            <Skeleton className="h-8" />
            <Skeleton className="h-8" />
          </div>
        ) : organization.api_keys.length === 0 ? (
          <Empty text="No API keys found" />
        ) : (
          <div className="-m-5 lg:overflow-x-auto">
            <table className="w-full table-fixed text-left text-sm max-lg:block lg:min-w-[58rem]">
              <colgroup className="max-lg:hidden">
                {COLUMNS.map((column) => (
                  <col key={column.name} style={{ width: column.width }} />
                ))}
              </colgroup>
              <thead className="bg-slate-50 text-xs font-semibold text-slate-600 max-lg:sr-only">
                <tr>
                  {COLUMNS.map((column) => (
                    <th key={column.name} scope="col" className="px-4 py-3">
                      {column.name}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="max-lg:block">
                {organization.api_keys.map((apiKey) => (
                  <ApiKeyRow key={apiKey.id} apiKey={apiKey} isOwner={isOwner} onDelete={asOwner(() => setDeleting(apiKey))} />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>
      <AddApiKeyDialog open={adding} onClose={() => setAdding(false)} />
      <DeleteApiKeyDialog apiKey={deleting} onClose={() => setDeleting(null)} />
    </Page>
  );
}

function Empty({ text }: { text: string }) {
  return <p className="py-8 text-center text-sm text-slate-500">{text}</p>;
}
