import { ShieldCheck } from 'lucide-react';
import { redirectBrowser } from '@/lib/router';
import { useServerInfo } from '@/lib/server-info';

export function LoginPage() {
  const { mode } = useServerInfo();
  return (
    <div className="grid min-h-screen place-items-center bg-slate-50 p-6">
      <main className="w-full max-w-sm rounded-2xl border border-slate-200 bg-white p-8 text-center shadow-sm">
        <img src="/favicon.svg" alt="" className="mx-auto mb-4 size-10" />
        <h1 className="text-2xl font-semibold text-slate-900">Sign in</h1>
        <p className="mt-2 text-sm text-slate-600">to the Sift developer dashboard</p>
        {/* The page's one control takes focus: Enter signs in. */}
        <button
          type="button"
          autoFocus
          onClick={() => redirectBrowser('/auth/google/login')}
          className="mt-6 inline-flex w-full items-center justify-center gap-3 rounded-md border border-slate-300 bg-white px-4 py-2.5 text-sm font-medium text-slate-800 shadow-sm hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-slate-400"
        >
          <GoogleMark /> Sign in with Google
        </button>
        {mode === 'local' ? (
          <p className="mt-3 text-xs text-slate-500">This server runs in local mode: no identity provider is configured, so you sign in with a name and e-mail.</p>
        ) : null}
        <div className="mt-8 flex justify-center gap-3" aria-label="Compliance">
          <ComplianceBadge label="SOC 2 Type 2" />
          <ComplianceBadge label="HIPAA" />
        </div>
      </main>
    </div>
  );
}

function ComplianceBadge({ label }: { label: string }) {
  return (
    <span className="inline-flex items-center gap-1.5 rounded-full border border-slate-200 bg-slate-50 px-3 py-1 text-xs font-medium text-slate-700">
      <ShieldCheck className="size-3.5 text-green-600" /> {label}
    </span>
  );
}

function GoogleMark() {
  return (
    <svg viewBox="0 0 48 48" className="size-4" aria-hidden>
      <path fill="#FFC107" d="M43.6 20.5H42V20H24v8h11.3C33.7 32.7 29.2 36 24 36c-6.6 0-12-5.4-12-12s5.4-12 12-12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 12.9 4 4 12.9 4 24s8.9 20 20 20 20-8.9 20-20c0-1.3-.1-2.4-.4-3.5z" />
      <path fill="#FF3D00" d="m6.3 14.7 6.6 4.8C14.7 15.1 19 12 24 12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 16.3 4 9.7 8.3 6.3 14.7z" />
      <path fill="#4CAF50" d="M24 44c5.2 0 9.9-2 13.4-5.2l-6.2-5.2C29.2 35.1 26.7 36 24 36c-5.2 0-9.6-3.3-11.3-8l-6.5 5C9.5 39.6 16.2 44 24 44z" />
      <path fill="#1976D2" d="M43.6 20.5H42V20H24v8h11.3c-.8 2.2-2.2 4.2-4.1 5.6l6.2 5.2C37 39.2 44 34 44 24c0-1.3-.1-2.4-.4-3.5z" />
    </svg>
  );
}
