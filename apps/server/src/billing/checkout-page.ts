import { formatUsd, type Plan } from './plans.ts';

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const longDate = (date: Date) =>
  date.toLocaleDateString('en-US', { timeZone: 'UTC', year: 'numeric', month: 'long', day: 'numeric' });

const shell = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)} - Sift</title>
<style>
body{font-family:system-ui,sans-serif;background:#f8fafc;display:grid;place-items:center;min-height:100vh;margin:0;color:#0f172a}
main{background:#fff;border:1px solid #e2e8f0;border-radius:12px;padding:32px;width:min(400px,90vw);box-shadow:0 1px 3px #0001}
h1{font-size:20px;margin:0 0 4px}p{color:#475569;font-size:14px;margin:0 0 16px}
dl{display:grid;grid-template-columns:auto 1fr;gap:8px 16px;font-size:14px;margin:20px 0}dt{color:#64748b}dd{margin:0;font-weight:500}
.actions{display:flex;gap:12px;margin-top:24px}
button,a.button{flex:1;padding:10px;border-radius:6px;font-size:14px;cursor:pointer;text-align:center;text-decoration:none}
button{border:0;background:#0f172a;color:#fff}a.button{border:1px solid #cbd5e1;color:#0f172a;background:#fff}
</style></head><body><main>${body}</main></body></html>`;

/**
 * The local provider's checkout page: plan, price, trial, and Confirm (activates the plan and
 * writes the invoice) or Cancel (back to Billing, nothing changes).
 */
export function localCheckoutPage(checkoutId: string, checkout: { plan: Plan; organizationName: string; trialEnd: Date | null }): string {
  const { plan, trialEnd } = checkout;
  const price = `${formatUsd(plan.monthlyPriceCents ?? 0)} / month`;
  return shell(
    `Checkout: ${plan.name}`,
    `<h1>Subscribe to ${escape(plan.name)}</h1>
<p>Local billing: this server records the plan and its invoices; no payment is taken.</p>
<dl>
<dt>Organization</dt><dd>${escape(checkout.organizationName)}</dd>
<dt>Plan</dt><dd data-testid="checkout-plan">${escape(plan.name)}</dd>
<dt>Price</dt><dd data-testid="checkout-price">${price}</dd>
<dt>Trial</dt><dd data-testid="checkout-trial">${
      trialEnd ? `Free for ${plan.trialDays / 7} weeks, first charge on ${longDate(trialEnd)}` : 'No free trial, charged today'
    }</dd>
</dl>
<form method="post" action="/billing/checkout/${encodeURIComponent(checkoutId)}/confirm">
<div class="actions"><a class="button" href="/billing">Cancel</a><button type="submit">Confirm</button></div>
</form>`,
  );
}

export function checkoutUnavailablePage(detail: string): string {
  return shell('Checkout unavailable', `<h1>Checkout unavailable</h1><p>${escape(detail)}</p><div class="actions"><a class="button" href="/billing">Back to Billing</a></div>`);
}
