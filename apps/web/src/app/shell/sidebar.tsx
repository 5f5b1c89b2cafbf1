import { BarChart3, BookOpen, Building2, CreditCard, FolderOpen, KeyRound, LogOut, Search, type LucideIcon } from 'lucide-react';
import { cn } from '@/components/ui/cn';
import { useSession } from '@/lib/current-user';
import { navigate } from '@/lib/router';
import type { Route } from '@/lib/routes';
import { useServerInfo } from '@/lib/server-info';

const ENTRIES: { route: Route; label: string; icon: LucideIcon }[] = [
  { route: 'api-keys', label: 'API Keys', icon: KeyRound },
  { route: 'search', label: 'Search', icon: Search },
  { route: 'billing', label: 'Billing', icon: CreditCard },
  { route: 'usage', label: 'Usage', icon: BarChart3 },
  { route: 'collections', label: 'Collections', icon: FolderOpen },
  { route: 'organization', label: 'Organization', icon: Building2 },
];

const item = 'flex w-full items-center gap-3 rounded-md px-3 py-2 text-sm font-medium transition-colors';

export function Sidebar({ route }: { route: Route }) {
  const { logout } = useSession();
  const { docs_url } = useServerInfo();
  return (
    <nav aria-label="Main" className="flex w-56 shrink-0 flex-col border-r border-slate-200 bg-white p-3">
      <div className="mb-6 flex items-center gap-2 px-3 pt-2 text-lg font-semibold">
        <img src="/favicon.svg" alt="" className="size-6" /> Sift
      </div>
      <ul className="flex flex-1 flex-col gap-1">
        <li>
          <a href={docs_url} target="_blank" rel="noreferrer" className={cn(item, 'text-slate-600 hover:bg-slate-100 hover:text-slate-900')}>
            <BookOpen className="size-4" /> Docs
          </a>
        </li>
        {ENTRIES.map(({ route: target, label, icon: Icon }) => (
          <li key={target}>
            <a
              href={`/${target}`}
              aria-current={route === target ? 'page' : undefined}
              onClick={(event) => {
                if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
                event.preventDefault();
                navigate(`/${target}`);
              }}
              className={cn(item, route === target ? 'bg-slate-900 text-white' : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900')}
            >
              <Icon className="size-4" /> {label}
            </a>
          </li>
        ))}
      </ul>
      <button type="button" onClick={logout} className={cn(item, 'text-slate-600 hover:bg-slate-100 hover:text-slate-900')}>
        <LogOut className="size-4" /> Log Out
      </button>
    </nav>
  );
}
