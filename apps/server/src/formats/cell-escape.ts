/**
 * Formula-injection escaping for exported cells (OWASP "CSV injection"). A text cell that starts
 * with = + - @ tab or carriage return may be run as a formula when a spreadsheet opens or re-edits
 * it, so exports prefix it with an apostrophe, the spreadsheet convention for "this is text".
 *
 * The mapping is reversible so that export -> import changes nothing: a value that itself starts
 * with an apostrophe is prefixed too, and import strips one apostrophe only when the next character
 * is a trigger or an apostrophe, i.e. only what export could have added.
 */
const TRIGGERS = new Set(['=', '+', '-', '@', '\t', '\r']);
const QUOTE = "'";

const needsPrefix = (value: string) => value.length > 0 && (TRIGGERS.has(value[0]!) || value[0] === QUOTE);

export function escapeFormula(value: string): string {
  return needsPrefix(value) ? QUOTE + value : value;
}

export function unescapeFormula(value: string): string {
  return value.length > 1 && value[0] === QUOTE && needsPrefix(value.slice(1)) ? value.slice(1) : value;
}
