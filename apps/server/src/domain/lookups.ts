import { LRUCache } from 'lru-cache';

/**
 * What a server found in the database lately (verified API keys, collections by name), trusted
 * for `ttlMs` and at most LOOKUPS_MAX of them, the least recently used going first. Each is made
 * once in the server's context and handed to the services on their actors; a service that
 * changes what one holds clears it.
 */
export type Lookups<T extends object> = LRUCache<string, T>;

/** Entries a lookup keeps at most (each a few hundred bytes). */
const LOOKUPS_MAX = 10_000;

export const lookups = <T extends object>(ttlMs: number): Lookups<T> => new LRUCache<string, T>({ max: LOOKUPS_MAX, ttl: ttlMs });
