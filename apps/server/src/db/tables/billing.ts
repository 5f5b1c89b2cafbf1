/** Subscriptions and invoices. Filled in by billing. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface BillingTables {}
