import type { FastifyBaseLogger } from 'fastify';
import type { Dependency, DependencyUnavailable } from '../dependencies.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The dependencies unreachable now (plugins/errors.ts reports them, readiness reads them). */
    outages: Outages;
  }
}

/** Whether a dependency answers: resolves when it does, rejects (or never settles) when not. */
export type Probe = () => Promise<unknown>;

export interface Outages {
  /** A request (or readiness) found a dependency unreachable. */
  report(outage: DependencyUnavailable): void;
  /** The dependencies unreachable now. */
  down(): Dependency[];
  close(): void;
}

/** How often an unreachable dependency is probed, and how long a probe may take. */
const PROBE_EVERY_MS = 1000;
const PROBE_TIMEOUT_MS = 2000;

interface Outage {
  since: number;
  /** Requests answered 503 for it so far. */
  refused: number;
  timer: NodeJS.Timeout;
}

/**
 * One log line when an outage begins and one when it ends, however many requests it refused
 * meanwhile (even a short database restart refuses a great many, and a stack trace for each
 * buried the log). The end is found by probing the dependency every second from the first
 * failure: requests that do not need it keep answering meanwhile, and the ones that do answer
 * again with no operator action.
 */
export function watchOutages(log: FastifyBaseLogger, probes: Partial<Record<Dependency, Probe>>): Outages {
  const outages = new Map<Dependency, Outage>();

  const watch = (dependency: Dependency, probe: Probe): NodeJS.Timeout => {
    let probing = false;
    const timer = setInterval(() => {
      if (probing) return;
      probing = true;
      timeLimited(probe(), PROBE_TIMEOUT_MS).then(
        () => {
          const outage = outages.get(dependency);
          if (!outage) return;
          clearInterval(outage.timer);
          outages.delete(dependency);
          const seconds = ((Date.now() - outage.since) / 1000).toFixed(1);
          log.warn(`${dependency} reachable again after ${seconds} s; ${outage.refused} request(s) were answered 503 meanwhile`);
        },
        () => {
          probing = false;
        },
      );
    }, PROBE_EVERY_MS);
    timer.unref();
    return timer;
  };

  return {
    report(outage) {
      const known = outages.get(outage.dependency);
      if (known) {
        known.refused++;
        return;
      }
      const probe = probes[outage.dependency];
      if (!probe) return;
      log.warn(`${outage.dependency} unreachable (${outage.reason}): requests that need it answer 503 with retry-after until it is back`);
      outages.set(outage.dependency, { since: Date.now(), refused: 1, timer: watch(outage.dependency, probe) });
    },
    down: () => [...outages.keys()],
    close() {
      for (const outage of outages.values()) clearInterval(outage.timer);
      outages.clear();
    },
  };
}

/** The promise, or a rejection once `ms` have passed (a connection attempt to a silent address hangs). */
export async function timeLimited<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)));
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
