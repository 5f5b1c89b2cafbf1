import { readFileSync } from 'node:fs';
import { profilesIn, summariseProfile } from '../support/cpu-profile.ts';
const w = JSON.parse(readFileSync('/tmp/wt11/window.json', 'utf8'));
for (const file of profilesIn(process.argv[2]!)) {
  const s = summariseProfile(file, Number(process.env.TOP ?? 40), w);
  const busy = s.totalMs - s.idleMs; if (busy < 50) continue;
  console.log(file, 'busy', busy.toFixed(0), 'ms', (busy * 1000 / w.requests).toFixed(0), 'µs/request');
  for (const r of s.byFunction) console.log('  self', (r.ms * 1000 / w.requests).toFixed(1).padStart(7), r.name);
  for (const r of s.inclusive) console.log('  incl', (r.ms * 1000 / w.requests).toFixed(1).padStart(7), r.name);
  for (const r of s.byPlace) console.log('  place', (r.ms * 1000 / w.requests).toFixed(1).padStart(7), r.place);
}
