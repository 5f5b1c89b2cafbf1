import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Summaries of V8 CPU profiles (`node --cpu-prof`): self time by function and by where the code
 * lives (a package of node_modules, a file of Sift, node's internals, the garbage collector).
 */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  file: string;
  totalMs: number;
  idleMs: number;
  byFunction: { name: string; ms: number }[];
  byPlace: { place: string; ms: number }[];
  /** Inclusive time of Sift's own functions (what they and their callees cost). */
  inclusive: { name: string; ms: number }[];
}

const placeOf = (url: string, name: string): string => {
  if (name === '(garbage collector)') return 'garbage collector';
  if (name === '(idle)' || name === '(program)') return name;
  if (!url) return `native: ${name || '(anonymous)'}`;
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (modules) return `npm ${modules[1]}`;
  if (url.startsWith('node:')) return 'node internals';
  const sift = /\/(apps|packages|bench)\/(.*)$/.exec(url);
  return sift ? `${sift[1]}/${sift[2]}` : url;
};

/**
 * `window`: only the samples taken between these two moments (microseconds of the monotonic
 * clock, `process.hrtime.bigint() / 1000n` in any process of this machine, which is the clock V8's
 * profiles are stamped with).
 */
export function summariseProfile(file: string, top = 25, window?: { from: number; to: number }): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const self = new Map<number, number>();
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    if (window && (at < window.from || at > window.to)) return;
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });

  const functions = new Map<string, number>();
  const places = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let idleMs = 0;
  let totalMs = 0;
  for (const [id, ms] of self) {
    const node = byId.get(id)!;
    const { functionName, url, lineNumber } = node.callFrame;
    totalMs += ms;
    if (functionName === '(idle)') {
      idleMs += ms;
      continue;
    }
    const place = placeOf(url, functionName);
    const name = `${functionName || '(anonymous)'} ${place}:${lineNumber + 1}`;
    functions.set(name, (functions.get(name) ?? 0) + ms);
    places.set(place, (places.get(place) ?? 0) + ms);
    // Each Sift function on the stack once, whatever the recursion.
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)!.callFrame;
      if (!/\/(apps|packages)\//.test(frame.url)) continue;
      const key = `${frame.functionName || '(anonymous)'} ${placeOf(frame.url, frame.functionName)}:${frame.lineNumber + 1}`;
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + ms);
    }
  }
  const sorted = (map: Map<string, number>) => [...map].sort((a, b) => b[1] - a[1]).slice(0, top);
  return {
    file,
    totalMs,
    idleMs,
    byFunction: sorted(functions).map(([name, ms]) => ({ name, ms })),
    byPlace: sorted(places).map(([place, ms]) => ({ place, ms })),
    inclusive: sorted(inclusive).map(([name, ms]) => ({ name, ms })),
  };
}

export const profilesIn = (dir: string): string[] =>
  readdirSync(dir)
    .filter((name) => name.endsWith('.cpuprofile'))
    .map((name) => join(dir, name));
