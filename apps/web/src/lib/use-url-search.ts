import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { z } from 'zod';

/** A value a search parameter can hold: lists are comma-joined, empty values leave the URL. */
export type UrlSearchValue = string | number | boolean | readonly (string | number)[] | undefined | null;

/**
 * A screen's search state kept in the URL (filters, sort, page), read through `schema` (which
 * supplies defaults and drops what is invalid) and changed by patches: `update({ page: 2 })`.
 * A list is written comma-joined; undefined, null, '' and an empty list remove the parameter.
 */
export function useUrlSearch<S extends z.ZodType>(schema: S) {
  const [params, setParams] = useSearchParams();
  const search = useMemo(() => schema.parse(Object.fromEntries(params)) as z.output<S>, [params, schema]);
  const update = useCallback(
    (patch: Partial<Record<keyof z.output<S> & string, UrlSearchValue>>) => {
      setParams((current) => {
        const next = new URLSearchParams(current);
        for (const [key, value] of Object.entries(patch) as [string, UrlSearchValue][]) {
          const text = Array.isArray(value) ? value.join(',') : value == null ? '' : String(value);
          if (text === '') next.delete(key);
          else next.set(key, text);
        }
        return next;
      });
    },
    [setParams],
  );
  return { search, update };
}

/** Search-parameter readers the screens' schemas share: a comma list, a text, a calendar day. */
export const urlParams = {
  list: z
    .string()
    .transform((v) => v.split(',').filter(Boolean))
    .optional(),
  text: z.string().optional(),
  /** 'YYYY-MM-DD'; anything else reads as no day. */
  day: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional()
    .catch(undefined),
};
