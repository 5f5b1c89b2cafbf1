/**
 * A parse process (parse-pool.ts): reads the files it is sent, one at a time, and answers with
 * their pages or the reason they cannot be read. Its pool kills it at its bounds and on shutdown.
 */
import { readPages } from './parse.ts';
import type { ParseReply, ParseRequest } from './parse-pool.ts';
import { Ocr } from './parsers/ocr.ts';
import { ParseError } from './parsers/parse-error.ts';
import { surviveStrayPdfJsFailures } from './stray-rejections.ts';

// Ctrl-C reaches the whole process group: the server decides when its parsers stop.
process.on('SIGINT', () => {});
process.on('SIGTERM', () => {});
// The server is gone: nobody waits for an answer (the OCR thread would keep this process alive).
process.on('disconnect', () => process.exit(0));
surviveStrayPdfJsFailures({ info: () => {} });
const ocr = new Ocr();

process.on('message', (request: ParseRequest) => {
  const bytes = Buffer.from(request.bytes.buffer, request.bytes.byteOffset, request.bytes.byteLength);
  void readPages(bytes, request.format, ocr).then(
    ({ pages, ocrPages }) => answer({ ok: true, pages, ocrPages }),
    (error: unknown) =>
      answer({
        ok: false,
        parseError: error instanceof ParseError,
        name: error instanceof Error ? error.name : 'Error',
        message: error instanceof Error ? error.message : String(error),
      }),
  );
});

function answer(reply: ParseReply): void {
  process.send?.(reply);
}
