/** The one clock: every stored time and every lease is read from here. */
export const nowMs = (): number => Date.now();

/** The current time as the ISO string every table stores. */
export const nowIso = (): string => new Date(nowMs()).toISOString();

/** A clock the engine is given (tests may pass one of their own); every lease is read from it. */
export interface Clock {
  nowMs(): number;
}

export const systemClock: Clock = { nowMs };

/** A clock's time as the ISO string every table stores. */
export const isoOf = (clock: Clock): string => new Date(clock.nowMs()).toISOString();
