import { TEXT_LIMITS } from '@railwatt/contracts';

/**
 * Text that came from outside (a file's name, a message quoting a file's bytes, an error's words)
 * made storable, before it is written: PostgreSQL text cannot hold NUL ('invalid byte sequence'),
 * jsonb cannot hold \u0000 or a lone surrogate ('unsupported Unicode escape sequence'), and a row
 * longer than its contract's limit fails the response schema of every list it is in. One write that
 * fails leaves its entry RUNNING; one stored row that fails a schema breaks a whole list with a 500.
 * So every writer of outcome text (data log, job runs, procedure results) passes it through here.
 */

/** Control characters a message shows escaped: C0 except tab, line feed and carriage return; DEL; C1. */
// eslint-disable-next-line no-control-regex
const MESSAGE_CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;
/** In a file name, tab and line breaks are control characters too. */
// eslint-disable-next-line no-control-regex
const NAME_CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;
/** A high surrogate without its low one, or a low one without its high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

// Not global: test() of a global expression remembers where it stopped.
const NON_TEXT = new RegExp(`[\\u0000-\\u001f\\u007f]|${LONE_SURROGATE.source}`);

/**
 * True when `value` holds a C0 control character, DEL or a lone surrogate: no name a file gives
 * (an identifier, a unit) holds one, and PostgreSQL text cannot hold NUL at all.
 */
export const holdsNonText = (value: string): boolean => NON_TEXT.test(value);

const escapeControl = (c: string): string => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`;

const cleanName = (value: string): string =>
  value.replace(NAME_CONTROLS, escapeControl).replace(LONE_SURROGATE, '\uFFFD');

/** `value` with control characters written as \xNN and lone surrogates as U+FFFD; nothing else changes. */
export function storableText(value: string): string {
  return value.replace(MESSAGE_CONTROLS, escapeControl).replace(LONE_SURROGATE, '\uFFFD');
}

/** Cuts before `end` without splitting a surrogate pair. */
const cutAt = (value: string, end: number): number =>
  end > 0 && end < value.length && (value.charCodeAt(end - 1) & 0xfc00) === 0xd800 ? end - 1 : end;

/**
 * A storable message of at most `max` characters (UTF-16 code units, as the contracts count). A
 * longer one keeps its beginning, cut after the last whole line or '; '-separated item that fits
 * when there is one near the cut, and says how much was left out.
 */
export function boundedText(value: string, max: number): string {
  const text = storableText(value);
  if (text.length <= max) return text;
  // The note's length depends on the count; 40 characters hold it for any string length.
  const room = Math.max(0, max - 40);
  let end = cutAt(text, room);
  const boundary = Math.max(text.lastIndexOf('\n', end), text.lastIndexOf('; ', end));
  if (boundary > room * 0.75) end = boundary;
  const note = ` … (${text.length - end} more characters)`;
  return (text.slice(0, end) + note).slice(0, max);
}

/** Longest extension a cut file name keeps ("xlsx", "edifact"); a longer "extension" is just text. */
const MAX_EXTENSION = 16;

/**
 * A file name as the data log keeps it: control characters escaped, lone surrogates replaced and at
 * most `max` characters (contracts TEXT_LIMITS.name). A longer name is cut in its middle, keeping
 * its extension, since the extension tells the format: "very-long….xml". Uploads and the SFTP intake
 * both cut (an SFTP intake cannot answer a refusal); the file's bytes are kept whole either way.
 */
export function storableFileName(name: string, max: number = TEXT_LIMITS.name): string {
  const clean = cleanName(name);
  if (clean.length <= max) return clean;
  const dot = clean.lastIndexOf('.');
  const extension = dot > 0 && clean.length - dot <= MAX_EXTENSION + 1 ? clean.slice(dot) : '';
  const stem = clean.slice(0, cutAt(clean, max - extension.length - 1));
  return `${stem}…${extension}`;
}

/**
 * A short text that must fit a contract string (an identifier, a name): storable and cut to `max`
 * characters with an ellipsis. For the few values a file supplies that lists show as they are
 * (a series' entity identifier in the data log).
 */
export function storableName(value: string, max: number): string {
  const clean = cleanName(value);
  return clean.length <= max ? clean : `${clean.slice(0, cutAt(clean, max - 1))}…`;
}
