import type { Kysely } from 'kysely';
import type { Pool } from 'pg';
import type { PipelinedPool } from './pipelined-pool.ts';
import type { AccountsTables } from './tables/accounts.ts';
import type { BillingTables } from './tables/billing.ts';
import type { OperationsTables } from './tables/operations.ts';
import type { RetrievalTables } from './tables/retrieval.ts';
import type { SessionsTables } from './tables/sessions.ts';
import type { UsageTables } from './tables/usage.ts';

export interface DB extends AccountsTables, RetrievalTables, BillingTables, UsageTables, OperationsTables, SessionsTables {}

export type Dialect = 'sqlite' | 'postgres';

/** The handle every domain service takes: the query builder plus the dialect for db/ adapters. */
export interface Database {
  db: Kysely<DB>;
  /** PostgreSQL: the pool filtered searches run on (SIFT_SEARCH_CONNECTIONS). */
  filteredSearchesDb?: Kysely<DB>;
  dialect: Dialect;
  /** SQLite file path, when SQLite runs (the search adapter opens FTS5 tables through it). */
  sqlitePath?: string;
  /** PostgreSQL's connection pool, when PostgreSQL runs (shared limits, pool metrics). */
  pool?: Pool;
  /** PostgreSQL: the searches' connections: pipelined ones for searches without a filter (SIFT_SEARCH_PIPELINES, single statements only), and the pool behind filteredSearchesDb (metrics). */
  searchPools?: { pipelined: PipelinedPool; filtered: Pool };
  /** SQLite: reader threads answering searches (default: one per core). */
  searchThreads?: number;
  /** Short write transactions, grouped into one commit on SQLite (group-commit.ts). */
  inGroupedTransaction: GroupedTransaction;
  destroy(): Promise<void>;
}

/** Runs `work` in a transaction: on SQLite possibly one shared with other units (group-commit.ts). */
export type GroupedTransaction = <T>(work: (trx: Kysely<DB>, group: GroupSums) => Promise<T>) => Promise<T>;

/**
 * Counters a unit adds to (usage events): summed over the units of the transaction that succeed,
 * and written once by it, just before it commits, instead of one row update per unit. A unit
 * that fails adds nothing; a write that fails fails the transaction, so every unit fails with it.
 */
export interface GroupSums {
  /** Adds `counters` to the sum kept under `key`, which `write` writes (the first unit's `write` for that key is used). */
  add(key: string, counters: Record<string, number>, write: (trx: Kysely<DB>, sums: Record<string, number>) => Promise<void>): void;
}
