import { ApiError } from '../../../lib/errors';

/** '#2: evn: ...' (one of many) or 'evn: ...' (the only one): the message without record and field. */
const PREFIX = /^(#\d+: )?evn: /;

/**
 * A failed traction unit save, split into the EVN's refusal (for the EVN field) and the rest (for the
 * list above the form). 'Property must be unique' on the EVN is shown as `uniqueText` (the translated
 * catalogue text), once, on the field, not again as 'Property must be unique: evn: Property must be
 * unique' above the form. `rest` is undefined when nothing else is left to show.
 */
export function splitEvnErrors(error: unknown, uniqueText: string): { evn: string | undefined; rest: unknown } {
  if (!(error instanceof ApiError) || error.status !== 400 || !error.envelope?.errors)
    return { evn: undefined, rest: error };
  const all = error.envelope.errors;
  const onEvn = all.filter((e) => e.field === 'evn');
  if (onEvn.length === 0) return { evn: undefined, rest: error };
  const first = onEvn[0]!;
  const evn = first.code === 'uniqueproperties' ? uniqueText : first.message.replace(PREFIX, '');
  const others = all.filter((e) => e.field !== 'evn');
  if (others.length === 0) return { evn, rest: undefined };
  return {
    evn,
    rest: new ApiError(error.status, error.statusText, {
      ...error.envelope,
      code: undefined,
      message: undefined,
      errors: others,
    }),
  };
}
