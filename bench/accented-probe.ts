/**
 * `npx tsx bench/accented-probe.ts [--postgres]`: MB (default 10) of small documents in which a
 * third of the e's are é (about 3% of the characters take two UTF-8 bytes, as in French), uploaded
 * through the SDK into a fresh server; prints the ingestion rate and the storage they add over
 * their text, to set beside retrieval's ASCII corpus.
 */
import { generateCorpus } from './support/corpus.ts';
import { ingest } from './support/ingest.ts';
import { dialectFromArguments, startSift } from './support/sift.ts';

const dialect = dialectFromArguments();
const sift = await startSift({ dialect, organizations: ['Accented'], env: { LOG_LEVEL: 'warn' } });
try {
  const client = sift.sdk('Accented');
  const accented = (text: string) => text.replace(/e/g, (e, offset: number) => (offset % 3 === 0 ? 'é' : e));
  const corpus = generateCorpus('small', Number(process.env.MB ?? 10), 21, 'accented').map((document) => {
    const text = accented(document.pages[0]!);
    return { ...document, pages: [text], content: { type: 'text' as const, text }, bytes: Buffer.byteLength(text) };
  });
  const textBytes = corpus.reduce((sum, document) => sum + document.bytes, 0);
  const before = await sift.storageBytes();
  await client.collections.add({ collection_name: 'accented' });
  const figures = await ingest(client, 'accented', corpus);
  await sift.quiet();
  const added = (await sift.storageBytes()) - before;
  console.log(
    `${dialect}: ${(textBytes / 1e6).toFixed(2)} MB of text in ${figures.documents} documents, ${figures.megabytesPerSecond.toFixed(2)} MB/s, ` +
      `storage added ${(added / 1e6).toFixed(2)} MB = ${(added / textBytes).toFixed(2)}x the text (the empty server ${(before / 1e6).toFixed(2)} MB)`,
  );
} finally {
  await sift.stop();
}
