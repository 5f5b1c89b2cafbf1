import * as z from 'zod';

/**
 * The string rules of both APIs, one rule each. Every string a client sends has a maximum
 * length; names and paths also refuse NUL and other control characters and lone surrogates
 * (half of a UTF-16 pair: not a character, and not encodable as UTF-8).
 */

export const utf8Bytes = (text: string): number => {
  // Fast path: code units count bytes exactly for ASCII.
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
};

const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;
const LONE_SURROGATE = /\p{Surrogate}/u;

export const noLoneSurrogates = (text: string): boolean => !LONE_SURROGATE.test(text);

/** Any text with a maximum length in characters (UTF-16 code units, as JSON Schema counts them). */
export const boundedText = (maxChars: number) =>
  z.string().max(maxChars, `must be at most ${maxChars} characters`).refine(noLoneSurrogates, 'must not contain lone surrogates');

/** Text limited in UTF-8 bytes; maxLength states the same number (a character is at least one byte). */
export const byteBoundedText = (maxBytes: number) =>
  z
    .string()
    .max(maxBytes, `must not exceed ${maxBytes} UTF-8 bytes`)
    .refine(noLoneSurrogates, 'must not contain lone surrogates')
    .refine((text) => utf8Bytes(text) <= maxBytes, `must not exceed ${maxBytes} UTF-8 bytes`)
    .meta({ description: `At most ${maxBytes} UTF-8 bytes.` });

/** A name or path: bounded in UTF-8 bytes, no control characters, no lone surrogates. */
export const printableName = (maxBytes: number, options: { allowEmpty?: boolean } = {}) =>
  z
    .string()
    .min(options.allowEmpty ? 0 : 1, 'must not be empty')
    .max(maxBytes, `must not exceed ${maxBytes} UTF-8 bytes`)
    .refine((text) => !CONTROL_CHARACTER.test(text), 'must not contain NUL or other control characters')
    .refine(noLoneSurrogates, 'must not contain lone surrogates')
    .refine((text) => utf8Bytes(text) <= maxBytes, `must not exceed ${maxBytes} UTF-8 bytes`)
    .meta({ description: `At most ${maxBytes} UTF-8 bytes; no control characters.` });

/** A trimmed, non-empty name people give (organizations, API keys), at most `maxChars` characters. */
export const personName = (maxChars: number) =>
  z
    .string()
    .trim()
    .min(1, 'must not be blank')
    .max(maxChars, `must be at most ${maxChars} characters`)
    .refine((text) => !CONTROL_CHARACTER.test(text), 'must not contain control characters')
    .refine(noLoneSurrogates, 'must not contain lone surrogates');

/**
 * Characters that show nothing on their own: white space, control and format characters (zero
 * widths, joiners, marks of direction), default-ignorable ones (fillers, variation selectors),
 * combining marks, and the blank Braille pattern. Code points this runtime's Unicode does not
 * know yet count as visible (a new emoji is one).
 */
const INVISIBLE = /[\p{White_Space}\p{Cc}\p{Cf}\p{Cs}\p{M}\p{Default_Ignorable_Code_Point}\u2800]/u;

/** Whether the text has at least one character a person can see (a name of spaces only has none). */
export const hasVisibleCharacter = (text: string): boolean => {
  for (const character of text) if (!INVISIBLE.test(character)) return true;
  return false;
};

/** Levels of objects and arrays in a parsed JSON value (a scalar is 0), counted without recursion. */
export const jsonDepth = (value: unknown): number => {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    deepest = Math.max(deepest, depth + 1);
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return deepest;
};
