import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { z } from 'zod';
import { AREA_KINDS_INFRASTRUCTURE, type InfrastructureAreaKind } from '@railwatt/contracts';
import type { AreaListFilter } from '../api/areas';

const flag = (fallback: boolean) =>
  z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional()
    .catch(undefined)
    .transform((v) => v ?? fallback);

/**
 * The area overview's filter in the URL (STYLE.md §5). product.md §4 "Area overview defaults: only
 * settlement area, only active": no `types` means settlement area, no `active`/`inactive` means
 * active only. Unknown type names are dropped.
 */
export const areaSearchSchema = z.object({
  types: z
    .string()
    .optional()
    .catch(undefined)
    .transform((v): InfrastructureAreaKind[] => {
      const known = (v ?? '')
        .split(',')
        .filter((t): t is InfrastructureAreaKind => (AREA_KINDS_INFRASTRUCTURE as readonly string[]).includes(t));
      return known.length > 0 ? known : ['settlementarea'];
    }),
  active: flag(true),
  inactive: flag(false),
});

export function useAreaSearch() {
  const [params, setParams] = useSearchParams();
  const filter: AreaListFilter = useMemo(() => areaSearchSchema.parse(Object.fromEntries(params)), [params]);
  const update = useCallback(
    (next: AreaListFilter) =>
      setParams({ types: next.types.join(','), active: String(next.active), inactive: String(next.inactive) }),
    [setParams],
  );
  return { filter, update };
}
