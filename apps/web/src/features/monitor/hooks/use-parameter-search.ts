import { z } from 'zod';
import { PARAMETER_TYPE_NAMES, parameterTypeNameSchema } from '@railwatt/contracts';
import { useUrlSearch } from '../../../lib/use-url-search';

/** 'YYYY-MM'; anything else reads as no month (the screen's default applies). */
const month = z
  .string()
  .regex(/^\d{4}-(0[1-9]|1[0-2])$/)
  .optional()
  .catch(undefined);

/**
 * The parameter overview's state in the URL (STYLE.md §5): the type (the first type by default), the
 * shown months `from` to `to` inclusive (absent: the screen's default, this year up to next month in
 * the area's zone, which depends on the zone and the day, so it is not written here) and whether
 * rows without any value are hidden.
 */
export const parameterSearchSchema = z.object({
  type: parameterTypeNameSchema.catch(PARAMETER_TYPE_NAMES[0]!).default(PARAMETER_TYPE_NAMES[0]!),
  from: month,
  to: month,
  hideEmpty: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .catch(false)
    .default(false),
});
export type ParameterSearch = z.infer<typeof parameterSearchSchema>;

export function useParameterSearch() {
  return useUrlSearch(parameterSearchSchema);
}
