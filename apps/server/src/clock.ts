/** The one clock: every stored time and every lease is read from here. */
export const nowMs = (): number => Date.now();

/** The current time as the ISO string every table stores. */
export const nowIso = (): string => new Date(nowMs()).toISOString();
