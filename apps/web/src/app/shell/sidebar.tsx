import * as Dialog from '@radix-ui/react-dialog';
import { BarChart3, BookOpen, Building2, CreditCard, FolderOpen, KeyRound, LogOut, Menu, Search, X, type LucideIcon } from 'lucide-react';
import { useEffect, useState } from 'react';
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

/** The sidebar's entries and log-out action; `onNavigate` lets the narrow-screen sheet close itself. */
function Navigation({ route, onNavigate, className }: { route: Route; onNavigate?(): void; className?: string }) {
  const { logout } = useSession();
  const { docs_url } = useServerInfo();
  return (
    // `className` sets the display: hidden below 1024 px in the page, always shown in the sheet.
    <nav aria-label="Main" className={cn('w-56 shrink-0 flex-col bg-white p-3', className)}>
      <div className="mb-6 flex items-center gap-2 px-3 pt-2 text-lg font-semibold">
        <img src="/favicon.svg" alt="" className="size-6" /> Sift
      </div>
      <ul className="flex flex-1 flex-col gap-1">
        <li>
          <a href={docs_url} target="_blank" rel="noreferrer" className={cn(item, 'text-slate-600 hover:bg-slate-100 hover:text-slate-900')}>
            <BookOpen className="size-4" aria-hidden /> Docs
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
                onNavigate?.();
              }}
              className={cn(item, route === target ? 'bg-slate-900 text-white' : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900')}
            >
              <Icon className="size-4" aria-hidden /> {label}
            </a>
          </li>
        ))}
      </ul>
      <button type="button" onClick={logout} className={cn(item, 'text-slate-600 hover:bg-slate-100 hover:text-slate-900')}>
        <LogOut className="size-4" aria-hidden /> Log Out
      </button>
    </nav>
  );
}

/** The sidebar from 1024 px up; below, the header's menu button opens it (NavigationSheet). */
export function Sidebar({ route }: { route: Route }) {
  return <Navigation route={route} className="hidden border-r border-slate-200 lg:flex" />;
}

/**
 * Below 1024 px the sidebar would leave too little room for a screen: it sits behind a menu
 * button instead, in a Radix Dialog (Escape closes, Tab is trapped, focus returns to the button).
 */
export function NavigationSheet({ route }: { route: Route }) {
  const [open, setOpen] = useState(false);
  // Widened past 1024 px the sidebar is back: an open sheet would be an invisible modal.
  useEffect(() => {
    const wide = window.matchMedia?.('(min-width: 1024px)');
    const close = () => wide.matches && setOpen(false);
    wide?.addEventListener('change', close);
    return () => wide?.removeEventListener('change', close);
  }, []);
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger className="-ml-1 grid size-9 shrink-0 place-items-center rounded-md text-slate-700 hover:bg-slate-100 lg:hidden" aria-label="Open navigation">
        <Menu className="size-5" aria-hidden />
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/40 lg:hidden" />
        <Dialog.Content className="fixed inset-y-0 left-0 z-50 flex w-64 max-w-[85vw] flex-col bg-white shadow-xl outline-none lg:hidden" aria-describedby={undefined}>
          <Dialog.Title className="sr-only">Navigation</Dialog.Title>
          <Navigation route={route} onNavigate={() => setOpen(false)} className="flex h-full w-full overflow-y-auto" />
          <Dialog.Close className="absolute top-4 right-3 grid size-8 place-items-center rounded-md text-slate-500 hover:bg-slate-100 hover:text-slate-900" aria-label="Close navigation">
            <X className="size-4" aria-hidden />
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
