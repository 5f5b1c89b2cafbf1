import type { Invoice } from '@sift/contracts';
import { Card } from '@/components/ui/card';
import { cn } from '@/components/ui/cn';
import { Skeleton } from '@/components/ui/skeleton';
import { billingMessages } from '@/features/billing/billing-messages';
import { formatBillingDate, formatUsd, planByType } from '@/features/billing/billing-plans';

interface BillingHistoryProps {
  invoices: Invoice[] | null;
  /** Shows 'Cancel plan' (only when the plan is not none). */
  canCancel: boolean;
  /** When a cancelled plan returns to none. */
  cancelAt: string | null;
  onCancelPlan(): void;
}

/** Section 'Billing history': the invoices, 'No results.' when there are none, and 'Cancel plan' (spec §2). */
export function BillingHistory({ invoices, canCancel, cancelAt, onCancelPlan }: BillingHistoryProps) {
  return (
    <Card
      title="Billing history"
      actions={
        canCancel ? (
          <button type="button" onClick={onCancelPlan} className="text-sm font-medium text-red-700 underline-offset-2 hover:underline">
            Cancel plan
          </button>
        ) : null
      }
    >
      {cancelAt ? <p className="mb-3 text-sm text-slate-600">Your plan ends on {formatBillingDate(cancelAt)}.</p> : null}
      {invoices === null ? (
        <div className="flex flex-col gap-2" aria-label="Loading invoices">
          <Skeleton className="h-8" />
          <Skeleton className="h-8" />
        </div>
      ) : invoices.length === 0 ? (
        <p className="py-6 text-center text-sm text-slate-500">{billingMessages.noInvoices}</p>
      ) : (
        <div className={cn('-mx-5 -mb-5 overflow-x-auto', !cancelAt && '-mt-5')}>
          <table className="w-full text-left text-sm">
            <thead className="bg-slate-50 text-xs font-semibold tracking-wide text-slate-500 uppercase">
              <tr>
                <th scope="col" className="px-5 py-3">Date</th>
                <th scope="col" className="px-5 py-3">Plan</th>
                <th scope="col" className="px-5 py-3 text-right">Amount</th>
              </tr>
            </thead>
            <tbody>
              {invoices.map((invoice, index) => (
                <tr key={`${invoice.date}-${index}`} className="border-t border-slate-100">
                  <td className="px-5 py-3 text-slate-700">{formatBillingDate(invoice.date)}</td>
                  <td className="px-5 py-3 text-slate-700">{invoice.subscription_type === 'none' ? 'None' : planByType(invoice.subscription_type).name}</td>
                  <td className="px-5 py-3 text-right font-medium text-slate-900 tabular-nums">{formatUsd(invoice.amount)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}
