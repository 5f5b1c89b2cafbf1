import type { Database } from '../db/schema.ts';

/** Which database the engine's search and queue are written for: chosen once, when the engine is built. */
export type Backend = 'sqlite' | 'postgres';

/** The backend of an opened database (its configuration chose the dialect). */
export const backendOf = (database: Pick<Database, 'dialect'>): Backend => database.dialect;
