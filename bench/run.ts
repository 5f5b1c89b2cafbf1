import { printDashboardBench, runDashboardBench } from './dashboard.ts';
import { runModelsBench } from './models.ts';
import { runRetrievalBench } from './retrieval.ts';
import { runScaleBench } from './scale.ts';
import { runUsageBench } from './usage.ts';

/**
 * `npm run bench`: every benchmark in turn, each printing its own table. Figures, not
 * assertions: compare them with the targets printed beside them. `npm run bench -- retrieval`
 * runs one (dashboard, retrieval, models, usage, scale).
 */
const benches: Record<string, () => Promise<unknown>> = {
  dashboard: async () => printDashboardBench(await runDashboardBench()),
  retrieval: () => runRetrievalBench(),
  models: () => runModelsBench(),
  usage: () => runUsageBench(),
  scale: () => runScaleBench(),
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
