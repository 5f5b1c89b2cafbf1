import { dependencyUnavailable } from '../../dependencies.ts';
import { ObjectMissing } from '../../file-store.ts';

/** The object store could not be read (anything but "no such object"): its own outage, not the document's fault. */
export class ObjectStoreUnreachable extends Error {
  constructor(readonly cause: unknown) {
    super(`The object store could not be reached: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'ObjectStoreUnreachable';
  }
}

/** The embedding provider failed while documents were being embedded: documents wait for it, none fails. */
export class EmbedderUnreachable extends Error {
  constructor(readonly cause: unknown) {
    super(`The embedding provider could not embed: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'EmbedderUnreachable';
  }
}

/** Reads through `read`, telling a missing object (rethrown as is) from a store that cannot be reached. */
export async function readObject(read: (hash: string) => Promise<Buffer>, hash: string): Promise<Buffer> {
  try {
    return await read(hash);
  } catch (error) {
    throw error instanceof ObjectMissing ? error : new ObjectStoreUnreachable(error);
  }
}

/**
 * Whether an error means a dependency is away (the database unreachable, the object store not
 * answering) rather than anything about the work: the work waits and is retried, never failed.
 * Outages are told apart as everywhere else (dependencies.ts).
 */
export function isDependencyDown(error: unknown): boolean {
  return error instanceof ObjectStoreUnreachable || error instanceof EmbedderUnreachable || dependencyUnavailable(error) !== null;
}

/**
 * How long ingestion waits before trying again while a dependency is down: doubling from
 * `firstMs` to `mostMs`, said once in the log when the outage begins and once when it ends.
 */
export class Backoff {
  private waitMs = 0;

  constructor(
    private readonly log: { info(message: string): void } | undefined,
    private readonly firstMs = 500,
    private readonly mostMs = 30_000,
  ) {}

  /** The next wait after a failure for want of a dependency. */
  failed(error: unknown): number {
    if (this.waitMs === 0) this.log?.info(`ingest: waiting for a dependency to come back (${error instanceof Error ? error.message : String(error)}); documents stay queued`);
    this.waitMs = Math.min(this.mostMs, this.waitMs === 0 ? this.firstMs : this.waitMs * 2);
    return this.waitMs;
  }

  /** Work went through: the next outage starts from the first wait again. */
  succeeded(): void {
    if (this.waitMs > 0) this.log?.info('ingest: dependencies are back; the queue drains');
    this.waitMs = 0;
  }
}
