import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { getResolvedPDFJS } from 'unpdf';
import { expect, test } from 'vitest';
import { isPdfJsFailure } from './parsers/pdf.ts';

const guard = fileURLToPath(new URL('./stray-rejections.ts', import.meta.url));

/** A process with the guard installed that leaves `rejection` unhandled; its exit code and output. */
function leaveUnhandled(rejection: string) {
  const script = `
    import { surviveStrayPdfJsFailures } from ${JSON.stringify(guard)};
    import { InvalidPDFException } from 'unpdf/pdfjs';
    surviveStrayPdfJsFailures({ info: (text) => console.log(text) });
    Promise.reject(${rejection});
    setTimeout(() => console.log('still working'), 100);`;
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', cwd: fileURLToPath(new URL('.', import.meta.url)) });
  return { status: run.status, output: run.stdout + run.stderr };
}

test('pdf.js failures are told from other errors', async () => {
  const { InvalidPDFException } = await getResolvedPDFJS();
  expect(isPdfJsFailure(new InvalidPDFException('Invalid PDF structure.'))).toBe(true);
  expect(isPdfJsFailure(new Error('Invalid PDF structure.'))).toBe(false);
  expect(isPdfJsFailure('Invalid PDF structure.')).toBe(false);
  expect(isPdfJsFailure(null)).toBe(false);
});

test('ingestion outlives a pdf.js failure nobody awaited, and still stops on any other', () => {
  const stray = leaveUnhandled(`new InvalidPDFException('Invalid PDF structure.')`);
  expect(stray.output).toContain('still working');
  expect(stray.output).toContain('ignored');
  expect(stray.status).toBe(0);

  const bug = leaveUnhandled(`new Error('a bug of ours')`);
  expect(bug.output).not.toContain('still working');
  expect(bug.output).toContain('a bug of ours');
  expect(bug.status).not.toBe(0);
}, 30_000);
