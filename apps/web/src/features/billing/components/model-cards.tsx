import { Boxes, Cpu, Server } from 'lucide-react';
import type { ReactNode } from 'react';
import { useServerInfo } from '@/lib/server-info';
import { models, SALES_CONTACT_URL } from '@/features/billing/billing-plans';

/** Section 'Models': the flagship reranker, the latest embedding model and the on-premises offering (spec §2). */
export function ModelCards() {
  const { docs_url: docsUrl } = useServerInfo();
  const { reranker, embedding } = models;
  return (
    <section aria-labelledby="billing-models" className="flex flex-col gap-3">
      <h2 id="billing-models" className="text-lg font-semibold text-slate-900">
        Models
      </h2>
      <div className="grid gap-4 md:grid-cols-3">
        <ModelCard
          icon={<Cpu className="size-5" />}
          name={reranker.name}
          kind="Flagship reranker"
          lines={[
            `$${reranker.pricePerMillionTokensUsd} per million tokens`,
            `Rate limit ${reranker.rateLimitBytesPerMinute.toLocaleString('en-US')} UTF-8 bytes per minute`,
            'Open weights on a model hub',
            'Self-serve with community support',
          ]}
          action={{ label: 'Try Now', href: docsUrl, external: true }}
        />
        <ModelCard
          icon={<Boxes className="size-5" />}
          name={embedding.name}
          kind="Latest embedding model"
          lines={['Our newest embedding model, in early preview']}
          action={{ label: 'Get Early Preview', href: SALES_CONTACT_URL }}
        />
        <ModelCard
          icon={<Server className="size-5" />}
          name="On-premises"
          kind="Run it in your own infrastructure"
          lines={['Every model and the search API, deployed where your data lives']}
          action={{ label: 'Get in Touch', href: SALES_CONTACT_URL }}
        />
      </div>
    </section>
  );
}

interface ModelCardProps {
  icon: ReactNode;
  name: string;
  kind: string;
  lines: string[];
  action: { label: string; href: string; external?: boolean };
}

function ModelCard({ icon, name, kind, lines, action }: ModelCardProps) {
  return (
    <article className="flex flex-col rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <div className="flex items-center gap-2 text-slate-700">
        {icon}
        <h3 className="text-base font-semibold text-slate-900">{name}</h3>
      </div>
      <p className="mt-1 text-sm text-slate-500">{kind}</p>
      <ul className="mt-3 flex flex-1 flex-col gap-1 text-sm text-slate-700">
        {lines.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      <a
        href={action.href}
        {...(action.external ? { target: '_blank', rel: 'noreferrer' } : {})}
        className="mt-4 inline-flex items-center justify-center rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-800 hover:bg-slate-50"
      >
        {action.label}
      </a>
    </article>
  );
}
