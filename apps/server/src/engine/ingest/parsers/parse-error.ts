/** A file that cannot be read; `message` is the reason shown to users (the document's parsing_failed reason). */
export class ParseError extends Error {
  override name = 'ParseError';
}
