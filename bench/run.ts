import { printDashboardBench, runDashboardBench } from './dashboard.ts';
import { runLoadBench } from './load.ts';
import { runModelsBench } from './models.ts';
import { runNearestBench } from './nearest.ts';
import { runProfileBench } from './profile.ts';
import { runHybridBench } from './hybrid.ts';
import { runQualityBench } from './quality.ts';
import { runRetrievalBench } from './retrieval.ts';
import { runScaleBench } from './scale.ts';
import { runUsageBench } from './usage.ts';

/**
 * `npm run bench`: every benchmark in turn, each printing its own table. Figures, not
 * assertions: compare them with the targets printed beside them. `npm run bench -- retrieval`
 * runs one (dashboard, retrieval, load, models, nearest, quality, usage, profile, scale); `--postgres` runs
 * retrieval and load on PostgreSQL (SIFT_BENCH_POSTGRES, default
 * postgres://postgres@127.0.0.1:5432/test, a fresh schema).
 */
const benches: Record<string, () => Promise<unknown>> = {
  dashboard: async () => printDashboardBench(await runDashboardBench()),
  retrieval: () => runRetrievalBench(),
  load: () => runLoadBench(),
  models: () => runModelsBench(),
  nearest: () => runNearestBench(),
  quality: async () => {
    await runQualityBench();
    await runHybridBench();
  },
  profile: () => runProfileBench(),
  usage: () => runUsageBench(),
  scale: () => runScaleBench(),
};

const chosen = process.argv.slice(2).filter((argument) => !argument.startsWith('--'));
// The profile is a tool for a question, not a figure of the report: asked for by name only.
for (const name of chosen.length ? chosen : Object.keys(benches).filter((name) => name !== 'profile')) {
  const bench = benches[name];
  if (!bench) {
    console.error(`unknown benchmark "${name}"; choose from ${Object.keys(benches).join(', ')}`);
    process.exit(2);
  }
  console.log(`\n=== ${name} ===`);
  await bench();
}
