import { readFileSync } from 'node:fs';
import { parseFile } from './src/ingest/parse.ts';
const t0 = Date.now();
try { const r = await parseFile(readFileSync('/tmp/wt13/bomb.docx'), { filename: 'x.docx' }); console.log('parsed', r.pages[0]!.length, Date.now()-t0); } catch (e) { console.log('error', String(e)); }
