import type { FastifyRequest } from 'fastify';
import type { Keyring } from '../auth/keyring.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/schema.ts';

/** What route plugins are given: they pass it on to domain services and never keep state. */
export interface AppContext {
  config: Config;
  database: Database;
  keyring: Keyring;
}

/** The address the dashboard is reached at: PUBLIC_URL, else what the browser used. */
export function dashboardUrl(config: Config, request: FastifyRequest): string {
  return config.publicUrl ?? `${request.protocol}://${request.host}`;
}
