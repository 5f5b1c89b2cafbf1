/** The current time as the ISO string every table stores. */
export const nowIso = (): string => new Date().toISOString();
