/**
 * `npx tsx bench/collections-probe.ts [--postgres]`: N (default 1,000) empty collections made
 * through the SDK in a fresh server; prints the storage they add once the server is quiet (the
 * issue's bound: 10 MB for 1,000), and what one costs.
 */
import { dialectFromArguments, startSift } from './support/sift.ts';

const dialect = dialectFromArguments();
const count = Number(process.env.N ?? 1000);
const sift = await startSift({ dialect, organizations: ['Collections'], env: { LOG_LEVEL: 'warn' } });
try {
  const client = sift.sdk('Collections');
  await sift.quiet();
  const before = await sift.storageBytes();
  for (let i = 0; i < count; i++) await client.collections.add({ collection_name: `empty-${i}` });
  await sift.quiet();
  const added = (await sift.storageBytes()) - before;
  console.log(
    `${dialect}: ${count} empty collections added ${(added / 1e3).toFixed(0)} KB, ${(added / count).toFixed(0)} bytes each (the empty server ${(before / 1e6).toFixed(2)} MB)`,
  );
} finally {
  await sift.stop();
}
