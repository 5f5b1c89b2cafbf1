import { execFileSync } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';

/** Nearest-rank percentile of milliseconds. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** A number rounded for a table. */
export const round = (value: number, digits = 2): number => (Number.isFinite(value) ? Number(value.toFixed(digits)) : value);

/** Two costs in series: the rate of a pipeline whose stages run at rates a and b, one after the other. */
export const inSeries = (a: number, b: number): number => 1 / (1 / a + 1 / b);

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function banner(): void {
  console.log(`Code: ${MEASURED}, report printed ${new Date().toISOString()}.`);
  console.log(
    `Machine: ${availableParallelism()} cores, load average ${loadavg()[0]!.toFixed(2)} at the start (anything else running shows there): compare ratios taken in one run rather than absolute numbers across runs.`,
  );
}

/** A progress line on stderr, so stdout keeps only the report. */
const started = performance.now();
export function progress(message: string): void {
  process.stderr.write(`[${((performance.now() - started) / 1000).toFixed(1)} s] ${message}\n`);
}

/** The commit measured, and whether the working tree had changes: taken when the benchmark starts. */
function revision(): string {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8' }).trim() !== '';
    return `commit ${commit}${dirty ? ' with uncommitted changes' : ''}`;
  } catch {
    return 'commit unknown';
  }
}

const MEASURED = `${revision()} at start ${new Date().toISOString()}`;
