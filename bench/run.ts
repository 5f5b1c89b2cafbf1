import { printDashboardBench, runDashboardBench } from './dashboard.ts';
import { runModelsBench } from './models.ts';
import { runQualityBench } from './quality.ts';
import { runRetrievalBench } from './retrieval.ts';
import { runUsageBench } from './usage.ts';

/**
 * `npm run bench`: every benchmark in turn, each printing its own table. Figures, not
 * assertions: compare them with the targets printed beside them. `npm run bench -- retrieval`
 * runs one (dashboard, retrieval, models, quality, usage).
 */
const benches: Record<string, () => Promise<unknown>> = {
  dashboard: async () => printDashboardBench(await runDashboardBench()),
  retrieval: () => runRetrievalBench(),
  models: () => runModelsBench(),
  quality: () => runQualityBench(),
  usage: () => runUsageBench(),
};

const chosen = process.argv.slice(2);
for (const name of chosen.length ? chosen : Object.keys(benches)) {
  const bench = benches[name];
  if (!bench) {
    console.error(`unknown benchmark "${name}"; choose from ${Object.keys(benches).join(', ')}`);
    process.exit(2);
  }
  console.log(`\n=== ${name} ===`);
  await bench();
}
