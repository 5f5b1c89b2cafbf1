import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import ZeroEntropy from 'zeroentropy';
import { createKeyring } from '../../apps/server/src/auth/keyring.ts';
import { openDatabase } from '../../apps/server/src/db/database.ts';
import { WAL_QUIET_BYTES } from '../../apps/server/src/db/wal-checkpoint.ts';
import { bootstrap } from '../../apps/server/src/domain/bootstrap.ts';
import { freePort } from '../../apps/server/test/cluster.ts';
import { serverNodeFlags } from '../../scripts/run-entry.mjs';
import { sleep } from './stats.ts';

/**
 * A real Sift server process for a benchmark, on a temporary data folder with SQLite, or on a
 * fresh schema of PostgreSQL (`--postgres`, or SIFT_BENCH_POSTGRES=url; default URL
 * postgres://postgres@127.0.0.1:5432/test). Organizations and their API keys are made before it
 * starts. Each listens on a port the system says is free (or SIFT_BENCH_PORT upwards), so two
 * benchmarks at once never talk to each other's server.
 */

const SECRET = 'bench-secret-0123456789abcdef';
const DEFAULT_POSTGRES = 'postgres://postgres@127.0.0.1:5432/test';

export type Dialect = 'sqlite' | 'postgres';

/** The dialect asked for on the command line or in the environment. */
export function dialectFromArguments(argv = process.argv): Dialect {
  return argv.includes('--postgres') || process.env.SIFT_BENCH_POSTGRES ? 'postgres' : 'sqlite';
}

let nextPort = process.env.SIFT_BENCH_PORT ? Number(process.env.SIFT_BENCH_PORT) : null;

export interface Sift {
  base: string;
  dialect: Dialect;
  dataDir: string;
  /** PostgreSQL: the server's database, on a schema of its own. */
  databaseUrl?: string;
  process: ChildProcess;
  /** API key of each organization asked for, by name. */
  keys: Record<string, string>;
  sdk(organization: string): ZeroEntropy;
  /** JSON POST to /v1 on a keep-alive agent: the leanest standard client, so latency is the server's. */
  post<T = unknown>(path: string, body: unknown, key: string | null): Promise<T>;
  /** Peak figures seen by the monitor since start (every 200 ms). */
  monitor: Monitor;
  /**
   * CPU seconds the server process has used so far, all its threads (user + system, from
   * /proc): what work costs, whatever else the machine runs meanwhile.
   */
  cpuSeconds(): number;
  /**
   * Resolves once the server has used under 3% of a core for two seconds in a row (the ingestion
   * threads' index upkeep, segment merging after a burst of writes, is done) and, on SQLite, its
   * write-ahead logs are truncated, on PostgreSQL no autovacuum, query or transaction runs in the database, at most
   * `limitSeconds`; the seconds waited. Under `--cpu-prof` the bar is 30% of a core: the
   * profiler's sampling alone keeps an idle server near a fifth of one.
   */
  quiet(limitSeconds?: number): Promise<number>;
  /**
   * Bytes the server's data take: SQLite, its data folder (every file, write-ahead logs
   * included); PostgreSQL, pg_total_relation_size of its schema's tables (indexes and TOAST included).
   */
  storageBytes(): Promise<number>;
  stop(): Promise<void>;
}

export interface Monitor {
  peakRssMb: number;
  /** Largest size seen of each write-ahead log (SQLite: *-wal files; PostgreSQL: pg_wal). */
  peakWalMb: Record<string, number>;
  reset(): void;
}

export async function startSift(options: {
  dialect: Dialect;
  organizations: string[];
  env?: Record<string, string>;
  nodeOptions?: string[];
}): Promise<Sift> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sift-bench-'));
  const port = nextPort === null ? await freePort() : nextPort++;
  const base = `http://127.0.0.1:${port}`;
  const schema = options.dialect === 'postgres' ? await freshSchema() : null;
  const databaseUrl = schema?.url;

  const setup = await openDatabase({ dataDir, databaseUrl });
  const keys: Record<string, string> = {};
  for (const name of options.organizations) {
    keys[name] = (await bootstrap(setup, createKeyring(SECRET), { email: `${name.toLowerCase()}@bench.example`, name, organizationName: name })).apiKey;
  }
  await setup.destroy();

  // As `npm start` runs it: the same V8 flags.
  const child = spawn(process.execPath, [...serverNodeFlags({ ...process.env, ...options.env }), ...(options.nodeOptions ?? []), '--import', 'tsx', 'apps/server/src/main.ts'], {
    env: {
      ...process.env,
      SIFT_DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      SIFT_SECRET: SECRET,
      LOG_LEVEL: 'warn',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      ...options.env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  /** What the run leaves behind: its data folder and, on PostgreSQL, its schema. */
  const removeData = async () => {
    if (process.env.SIFT_BENCH_KEEP_DATA) console.log('kept data folder', dataDir);
    else rmSync(dataDir, { recursive: true, force: true });
    if (process.env.SIFT_BENCH_KEEP_SCHEMA) console.log('kept schema', databaseUrl);
    else await schema?.drop();
  };
  await waitForServer(`${base}/openapi.json`, child).catch(async (error: unknown) => {
    // A server that never answered leaves nothing behind either.
    child.kill('SIGKILL');
    await removeData();
    throw error;
  });

  const monitor = startMonitor(child.pid!, options.dialect === 'sqlite' ? dataDir : null, databaseUrl);
  /**
   * PostgreSQL's own work after a burst of writes (autovacuum's vacuum and analyze of the search
   * tables, in backends of its own, not the server's process) is the writes' cost as segment
   * merging is on SQLite: quiet() waits for it too, and for any transaction left open (the
   * server's upkeep, between the statements of a merge).
   */
  const databaseBusy = async (): Promise<boolean> => {
    if (!databaseUrl) return false;
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ n: number }>(
        `select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()
           and (backend_type = 'autovacuum worker' or (backend_type = 'client backend' and state <> 'idle'))`,
      );
      return rows[0]!.n > 0;
    } finally {
      await client.end();
    }
  };
  /**
   * SQLite: a write-ahead log the server has yet to truncate (it does so a few seconds after
   * writes stop): the data folder is not yet what an idle server keeps.
   */
  const logsPending = (): boolean =>
    !databaseUrl && filesIn(dataDir).some((file) => file.name.endsWith('-wal') && file.size >= WAL_QUIET_BYTES);
  const { post, close: closeClient } = jsonClient(base);
  const quietCpuPerSecond = options.nodeOptions?.includes('--cpu-prof') ? 0.3 : 0.03;

  return {
    base,
    dialect: options.dialect,
    dataDir,
    databaseUrl,
    process: child,
    keys,
    sdk: (organization) => new ZeroEntropy({ apiKey: keys[organization]!, baseURL: `${base}/v1`, timeout: 600_000 }),
    post,
    monitor: monitor.figures,
    cpuSeconds: () => processCpuSeconds(child.pid!),
    async storageBytes() {
      if (!databaseUrl) return folderBytes(dataDir);
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      try {
        const { rows } = await client.query<{ bytes: string }>(
          `select coalesce(sum(pg_total_relation_size(c.oid)), 0) as bytes from pg_class c
             where c.relnamespace = current_schema()::regnamespace and c.relkind in ('r', 'p', 'm')`,
        );
        return Number(rows[0]!.bytes);
      } finally {
        await client.end();
      }
    },
    async quiet(limitSeconds = 300) {
      const started = performance.now();
      let before = processCpuSeconds(child.pid!);
      // Two quiet seconds in a row: upkeep that waits on PostgreSQL between its steps spends
      // nothing of the server's CPU, and one sample could fall between two of them.
      let quietSeconds = 0;
      while (performance.now() - started < limitSeconds * 1000 && quietSeconds < 2) {
        await sleep(1000);
        const now = processCpuSeconds(child.pid!);
        quietSeconds = now - before < quietCpuPerSecond && !(await databaseBusy()) && !logsPending() ? quietSeconds + 1 : 0;
        before = now;
      }
      return (performance.now() - started) / 1000;
    },
    async stop() {
      closeClient();
      monitor.stop();
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        // A clean exit writes the --cpu-prof profiles; a kill loses them, so it is said.
        const timer = setTimeout(() => {
          process.stderr.write('the server did not stop within 60 s of SIGTERM: killed\n');
          child.kill('SIGKILL');
        }, 60_000);
        await exited;
        clearTimeout(timer);
      }
      await removeData();
    },
  };
}

async function waitForServer(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error('the server exited');
    try {
      await fetch(url);
      return;
    } catch {
      await sleep(100);
    }
  }
  throw new Error('the server did not start');
}

/** A fresh schema in the benchmark's PostgreSQL database, and a URL whose search_path is it. */
export async function freshSchema(baseUrl = process.env.SIFT_BENCH_POSTGRES || DEFAULT_POSTGRES): Promise<{ url: string; drop(): Promise<void> }> {
  const schema = `sift_bench_${randomBytes(6).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: baseUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  // pgvector in `public`, as the tests have it: made by a migration, it would live in this schema
  // and go with it when dropped, from under any other schema or test using it meanwhile.
  await admin(`do $$ begin if exists (select 1 from pg_available_extensions where name = 'vector') then create extension if not exists vector schema public; end if; end $$`);
  await admin(`create schema ${schema}`);
  const url = new URL(baseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return { url: url.toString(), drop: () => admin(`drop schema if exists ${schema} cascade`) };
}

/** Samples the server's resident memory and the write-ahead logs' sizes every 200 ms. */
function startMonitor(pid: number, sqliteDir: string | null, databaseUrl: string | undefined) {
  const figures: Monitor = {
    peakRssMb: 0,
    peakWalMb: {},
    reset() {
      figures.peakRssMb = 0;
      figures.peakWalMb = {};
    },
  };
  const pgClient = databaseUrl ? new pg.Client({ connectionString: databaseUrl }) : null;
  const pgReady = pgClient?.connect().catch(() => null);
  let pgBusy = false;
  const note = (name: string, bytes: number) => {
    figures.peakWalMb[name] = Math.max(figures.peakWalMb[name] ?? 0, bytes / 1e6);
  };
  const timer = setInterval(() => {
    try {
      figures.peakRssMb = Math.max(figures.peakRssMb, processRssMb(pid));
    } catch {
      // the process has exited
    }
    if (sqliteDir) {
      for (const name of readdirSync(sqliteDir)) {
        if (!name.endsWith('-wal')) continue;
        try {
          note(name, statSync(join(sqliteDir, name)).size);
        } catch {
          // removed at a checkpoint
        }
      }
    }
    if (pgClient && !pgBusy) {
      pgBusy = true;
      void pgReady
        ?.then(() => pgClient.query<{ bytes: string }>('select coalesce(sum(size), 0) as bytes from pg_ls_waldir()'))
        .then((result) => note('pg_wal', Number(result.rows[0]?.bytes ?? 0)))
        .catch(() => {})
        .finally(() => {
          pgBusy = false;
        });
    }
  }, 200);
  return {
    figures,
    stop() {
      clearInterval(timer);
      void pgReady?.then(() => pgClient?.end()).catch(() => {});
    },
  };
}

/** Resident memory of a process now, MB (every thread shares one address space: VmRSS is the process's); throws once it has exited. */
export function processRssMb(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
}

/** utime + stime of a process (fields 14 and 15 of /proc/<pid>/stat, in clock ticks of 1/100 s). */
export function processCpuSeconds(pid: number): number {
  try {
    return cpuSecondsOfStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return NaN;
  }
}

/** The user and system CPU seconds a `/proc/<pid>/stat` (or a thread's `task/<tid>/stat`) holds. */
export function cpuSecondsOfStat(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * Counts the CPU seconds of every process named postgres on this machine (a server's backends
 * among them) from now: the function returned reads the count. A process that ends meanwhile
 * is left out rather than subtracted.
 */
export function postgresCpuMeter(): () => number {
  const before = postgresCpu();
  return () => {
    let spent = 0;
    for (const [pid, seconds] of postgresCpu()) spent += seconds - (before.get(pid) ?? 0);
    return spent;
  };
}

function postgresCpu(): Map<string, number> {
  const seconds = new Map<string, number>();
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (stat.includes('(postgres)')) seconds.set(pid, cpuSecondsOfStat(stat));
    } catch {
      // The process ended while the folder was read.
    }
  }
  return seconds;
}

/**
 * JSON POSTs to `${base}/v1` on a keep-alive agent: the leanest standard client, so latency is the
 * server's. A status of 300 or more rejects, with the status.
 */
export function jsonClient(base: string): { post: Sift['post']; close(): void } {
  // Idle sockets close after 30 s, before the server's keep-alive timeout (72 s): a socket idle
  // through a long ingestion was otherwise reused as the server closed it ("socket hang up").
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64, timeout: 30_000 });
  const post = <T>(path: string, body: unknown, key: string | null) =>
    new Promise<T>((resolve, reject) => {
      const payload = JSON.stringify(body);
      const request = http.request(
        `${base}/v1${path}`,
        {
          method: 'POST',
          agent,
          headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
        },
        (response) => {
          const parts: Buffer[] = [];
          response.on('data', (part: Buffer) => parts.push(part));
          response.on('end', () => {
            const text = Buffer.concat(parts).toString('utf8');
            if ((response.statusCode ?? 500) >= 300) reject(Object.assign(new Error(`${path}: ${response.statusCode} ${text.slice(0, 200)}`), { status: response.statusCode }));
            else resolve(JSON.parse(text) as T);
          });
        },
      );
      request.on('error', reject);
      request.end(payload);
    });
  return { post, close: () => agent.destroy() };
}

/** Bytes of every file under a folder. */
/** Every file under `folder`, with its size (0 for one removed while listed). */
function filesIn(folder: string): { name: string; size: number }[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    return entry.isDirectory() ? filesIn(path) : [{ name: entry.name, size: statSync(path, { throwIfNoEntry: false })?.size ?? 0 }];
  });
}

const folderBytes = (folder: string): number => filesIn(folder).reduce((bytes, file) => bytes + file.size, 0);
