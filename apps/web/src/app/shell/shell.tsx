import type { ReactNode } from 'react';
import type { Route } from '@/lib/routes';
import { Header } from '@/app/shell/header';
import { Sidebar } from '@/app/shell/sidebar';

export function Shell({ route, children }: { route: Route; children: ReactNode }) {
  return (
    <div className="flex h-screen bg-slate-50 text-slate-900">
      <Sidebar route={route} />
      <div className="flex min-w-0 flex-1 flex-col">
        <Header />
        <main className="min-h-0 flex-1 overflow-y-auto">{children}</main>
      </div>
    </div>
  );
}
