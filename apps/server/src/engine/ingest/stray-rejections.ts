import { isPdfJsFailure } from './parsers/pdf.ts';

/**
 * Keeps an ingestion process or thread alive through pdf.js's stray rejections (see
 * isPdfJsFailure): the damaged file has already failed on its own, and by Node's default an
 * unhandled rejection would end every worker loop with it. Any other unhandled rejection still
 * ends the process, as it would without this.
 */
export function surviveStrayPdfJsFailures(log: { info(message: string): void }): void {
  process.on('unhandledRejection', (reason) => {
    if (!isPdfJsFailure(reason)) throw reason;
    log.info(`ingest: pdf.js failed after a damaged PDF was refused (${String(reason)}); ignored`);
  });
}
