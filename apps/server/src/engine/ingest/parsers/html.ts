/**
 * The visible text of an HTML page, without a DOM: one linear scan over the markup that drops
 * tags, comments and the content of elements a reader never sees (script, style, ...), breaks
 * lines at block elements, collapses whitespace as browsers do (except in <pre>) and decodes
 * character references. Good enough for indexing; not a layout engine (CSS-hidden text stays).
 */

/** Elements whose content is never shown as text. */
const HIDDEN_ELEMENTS = new Set(['script', 'style', 'noscript', 'template', 'svg', 'iframe']);
/** Elements set apart by an empty line. */
const PARAGRAPH_ELEMENTS = new Set([
  'address', 'article', 'aside', 'blockquote', 'dl', 'fieldset', 'figure', 'footer', 'form', 'h1', 'h2', 'h3',
  'h4', 'h5', 'h6', 'header', 'hr', 'main', 'nav', 'ol', 'p', 'pre', 'section', 'table', 'title', 'ul',
]);
/** Elements that start on a new line. */
const LINE_ELEMENTS = new Set([
  'body', 'br', 'caption', 'dd', 'details', 'dialog', 'div', 'dt', 'figcaption', 'head', 'html', 'legend', 'li',
  'option', 'summary', 'tr',
]);
/** Table cells sit side by side on one line. */
const CELL_ELEMENTS = new Set(['td', 'th']);

export function htmlToText(html: string): string {
  const out = new VisibleText();
  let preDepth = 0;
  let i = 0;
  while (i < html.length) {
    const lt = html.indexOf('<', i);
    const textEnd = lt < 0 ? html.length : lt;
    if (textEnd > i) out.add(decodeCharacterReferences(html.slice(i, textEnd)), preDepth > 0);
    if (lt < 0) break;

    const tag = readTag(html, lt);
    if (!tag) {
      out.add('<', preDepth > 0); // a lone "<" in text, shown as such by browsers
      i = lt + 1;
      continue;
    }
    i = tag.end;
    if (tag.kind !== 'element') continue; // comment, doctype, processing instruction
    if (HIDDEN_ELEMENTS.has(tag.name)) {
      if (!tag.closing && !tag.selfClosing) i = skipElementContent(html, i, tag.name);
      continue;
    }
    if (tag.name === 'pre') preDepth = Math.max(0, preDepth + (tag.closing ? -1 : 1));
    if (PARAGRAPH_ELEMENTS.has(tag.name)) out.breakLine(2);
    else if (LINE_ELEMENTS.has(tag.name)) out.breakLine(1);
    else if (CELL_ELEMENTS.has(tag.name) && !tag.closing) out.add(' ', false);
  }
  return out.toString();
}

/**
 * Accumulates text as a browser lays it out: runs of whitespace collapse to one space (outside
 * <pre>), and the line breaks blocks ask for do not stack: the largest pending one is written
 * once, before the next visible text.
 */
class VisibleText {
  private readonly parts: string[] = [];
  private pendingBreak = 0;
  /** Whether the output ends with a collapsible space, or a line break, or is empty. */
  private atSpace = true;

  breakLine(lines: 1 | 2) {
    this.pendingBreak = Math.max(this.pendingBreak, lines);
  }

  add(text: string, preformatted: boolean) {
    let piece = preformatted ? text : text.replace(/[ \t\n\r\f]+/g, ' ');
    if (!preformatted && (this.atSpace || this.pendingBreak > 0)) piece = piece.replace(/^ /, '');
    if (piece === '') return;
    if (this.pendingBreak > 0 && this.parts.length > 0) {
      this.trimTrailingSpace();
      this.parts.push(this.pendingBreak === 2 ? '\n\n' : '\n');
    }
    this.pendingBreak = 0;
    this.parts.push(piece);
    this.atSpace = !preformatted && piece.endsWith(' ');
  }

  private trimTrailingSpace() {
    const last = this.parts.length - 1;
    if (this.atSpace) this.parts[last] = this.parts[last].slice(0, -1);
  }

  toString(): string {
    if (this.parts.length > 0) this.trimTrailingSpace();
    return this.parts.join('');
  }
}

interface Tag {
  kind: 'element' | 'other';
  name: string;
  closing: boolean;
  selfClosing: boolean;
  /** Index just past the tag's ">". */
  end: number;
}

/** The tag starting at `lt`, or undefined when this "<" does not start markup. */
function readTag(html: string, lt: number): Tag | undefined {
  if (html.startsWith('<!--', lt)) {
    const close = html.indexOf('-->', lt + 4);
    return { kind: 'other', name: '', closing: false, selfClosing: false, end: close < 0 ? html.length : close + 3 };
  }
  const next = html.charCodeAt(lt + 1);
  if (next === 0x21 /* ! */ || next === 0x3f /* ? */) {
    const close = html.indexOf('>', lt + 2);
    return { kind: 'other', name: '', closing: false, selfClosing: false, end: close < 0 ? html.length : close + 1 };
  }
  const closing = next === 0x2f; /* / */
  let j = closing ? lt + 2 : lt + 1;
  const nameStart = j;
  while (j < html.length && isNameChar(html.charCodeAt(j))) j++;
  if (j === nameStart || !isLetter(html.charCodeAt(nameStart))) return undefined;
  const name = html.slice(nameStart, j).toLowerCase();
  // Attributes: a ">" inside a quoted value does not end the tag.
  let quote = 0;
  for (; j < html.length; j++) {
    const c = html.charCodeAt(j);
    if (quote) {
      if (c === quote) quote = 0;
    } else if (c === 0x22 || c === 0x27) {
      quote = c;
    } else if (c === 0x3e /* > */) {
      return { kind: 'element', name, closing, selfClosing: html.charCodeAt(j - 1) === 0x2f, end: j + 1 };
    }
  }
  return { kind: 'element', name, closing, selfClosing: false, end: html.length };
}

/** Index past the closing tag of a hidden element (its content is raw text or not shown). */
function skipElementContent(html: string, from: number, name: string): number {
  const closing = new RegExp(`</${name}\\s*>`, 'gi');
  closing.lastIndex = from;
  const match = closing.exec(html);
  return match ? match.index + match[0].length : html.length;
}

const isLetter = (c: number) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
const isNameChar = (c: number) => isLetter(c) || (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x3a || c === 0x5f;

const CHARACTER_REFERENCE = /&(?:#(\d{1,8})|#[xX]([0-9a-fA-F]{1,7})|([a-zA-Z][a-zA-Z0-9]{1,31}));?/g;

export function decodeCharacterReferences(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(CHARACTER_REFERENCE, (whole, decimal?: string, hex?: string, name?: string) => {
    if (name !== undefined) {
      const named = NAMED_REFERENCES.get(name);
      return named ?? whole; // unknown names stay as written, as in browsers
    }
    const code = decimal !== undefined ? Number.parseInt(decimal, 10) : Number.parseInt(hex!, 16);
    const valid = code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff);
    return valid ? String.fromCodePoint(code) : '\ufffd';
  });
}

/** HTML 4's Latin-1 names, in code point order from U+00A0. */
const LATIN1_NAMES =
  'nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr deg plusmn sup2 sup3 acute ' +
  'micro para middot cedil sup1 ordm raquo frac14 frac12 frac34 iquest Agrave Aacute Acirc Atilde Auml Aring AElig ' +
  'Ccedil Egrave Eacute Ecirc Euml Igrave Iacute Icirc Iuml ETH Ntilde Ograve Oacute Ocirc Otilde Ouml times Oslash ' +
  'Ugrave Uacute Ucirc Uuml Yacute THORN szlig agrave aacute acirc atilde auml aring aelig ccedil egrave eacute ' +
  'ecirc euml igrave iacute icirc iuml eth ntilde ograve oacute ocirc otilde ouml divide oslash ugrave uacute ucirc ' +
  'uuml yacute thorn yuml';

const NAMED_REFERENCES = new Map<string, string>([
  ...LATIN1_NAMES.split(' ').map((name, i): [string, string] => [name, String.fromCharCode(0xa0 + i)]),
  // A no-break space is a plain space for search; a soft hyphen is invisible.
  ['nbsp', ' '],
  ['shy', ''],
  ['amp', '&'], ['lt', '<'], ['gt', '>'], ['quot', '"'], ['apos', "'"],
  ['hellip', '…'], ['mdash', '—'], ['ndash', '–'], ['lsquo', '‘'], ['rsquo', '’'], ['sbquo', '‚'],
  ['ldquo', '“'], ['rdquo', '”'], ['bdquo', '„'], ['lsaquo', '‹'], ['rsaquo', '›'], ['bull', '•'],
  ['trade', '™'], ['euro', '€'], ['dagger', '†'], ['Dagger', '‡'], ['permil', '‰'], ['prime', '′'],
  ['OElig', 'Œ'], ['oelig', 'œ'], ['Scaron', 'Š'], ['scaron', 'š'], ['Yuml', 'Ÿ'], ['fnof', 'ƒ'],
  ['circ', 'ˆ'], ['tilde', '˜'], ['ensp', ' '], ['emsp', ' '], ['thinsp', ' '], ['zwnj', '\u200c'],
  ['zwj', '\u200d'], ['lrm', '\u200e'], ['rlm', '\u200f'], ['larr', '←'], ['rarr', '→'], ['uarr', '↑'],
  ['darr', '↓'], ['harr', '↔'], ['minus', '−'], ['infin', '∞'], ['ne', '≠'], ['le', '≤'], ['ge', '≥'],
  ['asymp', '≈'], ['times', '×'], ['divide', '÷'], ['deg', '°'], ['Alpha', 'Α'], ['alpha', 'α'],
  ['beta', 'β'], ['gamma', 'γ'], ['delta', 'δ'], ['pi', 'π'], ['sigma', 'σ'], ['mu', 'μ'], ['lambda', 'λ'],
]);
