// npm run worker: a standalone ingestion worker (apps/server/src/worker.ts), stopped with this script.
import { runEntry } from './run-entry.mjs';

runEntry('apps/server/src/worker.ts');
