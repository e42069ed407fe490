import { ERROR_CODES } from '@railwatt/contracts';
import { ApiError, apiErrorMessages, type Translate } from '../../../../lib/errors';

export interface AreaSaveErrors {
  /** Shown on the name field ('Name must be unique' in the spec's words for names). */
  name?: string;
  /** Shown under the map: 'Areas must not overlap', 'Area must be within parent area', a bad ring. */
  geometry?: string;
  /** Everything else, above the form. */
  other: string[];
}

/**
 * A refused area save, split by where the user fixes it. The server's message for `nooverlap` is
 * 'Areas must not overlap: <area> and <other area>': the catalogue text is shown translated and the
 * names after it, so the user sees which stored area is in the way.
 */
export function areaSaveErrors(error: unknown, tRoot: Translate, nameTaken: string): AreaSaveErrors {
  if (!(error instanceof ApiError) || error.status !== 400 || !error.envelope?.errors?.length) {
    return { other: apiErrorMessages(error, tRoot) };
  }
  const out: AreaSaveErrors = { other: [] };
  for (const e of error.envelope.errors) {
    const code = e.code?.toLowerCase();
    if (code === 'uniquename' || (e.field === 'name' && code === 'uniqueproperties')) {
      out.name = nameTaken;
    } else if (code === 'nooverlap' || code === 'within') {
      const catalogue = ERROR_CODES[code];
      const detail = e.message
        .replace(/^#\d+: /, '')
        .replace(`${catalogue}: `, '')
        .replace(catalogue, '')
        .trim();
      const text = tRoot(`api_error_code.${code}`, { defaultValue: catalogue });
      out.geometry = detail ? `${text} (${detail})` : text;
    } else if (e.field === 'geometry') {
      out.geometry = e.message.replace(/^#\d+: /, '').replace(/^geometry: /, '');
    } else {
      out.other.push(
        e.code
          ? `${tRoot(`api_error_code.${e.code.toLowerCase()}`, { defaultValue: e.code })}: ${e.message}`
          : e.message,
      );
    }
  }
  return out;
}
