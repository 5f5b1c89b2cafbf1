import type { SubscriptionType } from '@sift/contracts';
import { Check } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';
import { formatBillingDate, formatPlanPrice, type Plan, type PlanType, plans, SALES_CONTACT_URL } from '@/features/billing/billing-plans';
import { planButton } from '@/features/billing/plan-button';

interface PlanCardsProps {
  current: SubscriptionType;
  trialEndDate: string | null;
  /** False while there is no organization to subscribe. */
  enabled: boolean;
  onChoose(plan: PlanType): void;
}

/** Section 'Billing Plans': Starter, Teams and Enterprise with their feature lines and buttons (spec §2). */
export function PlanCards({ current, trialEndDate, enabled, onChoose }: PlanCardsProps) {
  return (
    <section aria-labelledby="billing-plans" className="flex flex-col gap-3">
      <h2 id="billing-plans" className="text-lg font-semibold text-slate-900">
        Billing Plans
      </h2>
      <div className="grid gap-4 md:grid-cols-3">
        {plans.map((plan) => (
          <PlanCard
            key={plan.type}
            plan={plan}
            current={current}
            trialEndDate={plan.type === current ? trialEndDate : null}
            enabled={enabled}
            onChoose={onChoose}
          />
        ))}
      </div>
    </section>
  );
}

function PlanCard({ plan, current, trialEndDate, enabled, onChoose }: { plan: Plan; current: SubscriptionType; trialEndDate: string | null; enabled: boolean; onChoose(plan: PlanType): void }) {
  const button = planButton(current, plan.type);
  const isCurrent = current === plan.type;
  return (
    <article
      aria-label={`${plan.name} plan`}
      className={cn('flex flex-col rounded-xl border bg-white p-5 shadow-sm', isCurrent ? 'border-slate-900 ring-1 ring-slate-900' : 'border-slate-200')}
    >
      <div className="flex items-center justify-between gap-2">
        <h3 className="text-base font-semibold text-slate-900">{plan.name}</h3>
        {isCurrent ? <Badge tone="green">Current plan</Badge> : null}
      </div>
      <p className="mt-2 text-2xl font-semibold text-slate-900">{formatPlanPrice(plan)}</p>
      {trialEndDate ? <p className="mt-1 text-sm text-slate-600">Free trial until {formatBillingDate(trialEndDate)}</p> : null}
      <ul className="mt-4 flex flex-1 flex-col gap-2 text-sm text-slate-700">
        {plan.features.map((feature) => (
          <li key={feature} className="flex items-start gap-2">
            <Check className="mt-0.5 size-4 shrink-0 text-green-600" aria-hidden />
            {feature}
          </li>
        ))}
      </ul>
      {button.action === 'book-call' ? (
        <a
          href={SALES_CONTACT_URL}
          className="mt-5 inline-flex items-center justify-center rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-800 hover:bg-slate-50"
        >
          {button.label}
        </a>
      ) : (
        <Button className="mt-5" disabled={button.disabled || !enabled} onClick={() => onChoose(plan.type)}>
          {button.label}
        </Button>
      )}
    </article>
  );
}
