import { z } from 'zod';
import { COMPLETENESS_MIN_HOURS, PAGE_SIZES, PAGINATION_OPTIONS } from '@railwatt/contracts';
import { urlParams, useUrlSearch } from '../../../lib/use-url-search';

const SIZES: readonly number[] = [PAGE_SIZES.default, ...PAGINATION_OPTIONS];

/**
 * The completeness screens' state in the URL (STYLE.md §5): the threshold in hours as typed (a
 * value under 24 stays in the URL so the screen can say why nothing is asked), a text filter over
 * the rows, and the page (1-based) and size of the list (20 by default, calls.md §9).
 */
export const completenessSearchSchema = z.object({
  threshold: z.coerce.number().int().catch(COMPLETENESS_MIN_HOURS).default(COMPLETENESS_MIN_HOURS),
  q: urlParams.text,
  page: z.coerce.number().int().min(1).catch(1).default(1),
  size: z.coerce
    .number()
    .int()
    .refine((n) => SIZES.includes(n))
    .catch(PAGE_SIZES.default)
    .default(PAGE_SIZES.default),
});
export type CompletenessSearch = z.infer<typeof completenessSearchSchema>;

export function useCompletenessSearch() {
  return useUrlSearch(completenessSearchSchema);
}
