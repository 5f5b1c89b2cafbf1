import type { ReactNode } from 'react';
import type { Route } from '@/lib/routes';
import { Header } from '@/app/shell/header';
import { Sidebar } from '@/app/shell/sidebar';

export function Shell({ route, children }: { route: Route; children: ReactNode }) {
  return (
    <div className="flex h-dvh bg-slate-50 text-slate-900">
      {/* First in the Tab order: past the sidebar and header to the screen itself. */}
      <a
        href="#main"
        className="sr-only rounded-md bg-slate-900 px-3 py-2 text-sm font-medium text-white focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50"
      >
        Skip to content
      </a>
      <Sidebar route={route} />
      <div className="flex min-w-0 flex-1 flex-col">
        <Header route={route} />
        <main id="main" tabIndex={-1} className="min-h-0 flex-1 overflow-y-auto outline-none">
          {children}
        </main>
      </div>
    </div>
  );
}
