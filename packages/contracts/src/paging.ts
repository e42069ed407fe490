import { z } from 'zod';
import { LIST_LIMITS, TEXT_LIMITS, list, text } from './limits.js';

/** Highest page number a list call accepts (a larger one only makes the database count past the end). */
export const MAX_PAGE = 1_000_000;

/** One paging contract for every list (product.md §9 / calls.md §9). Pages are zero-based on the wire. */
export const pageQuerySchema = z.object({
  page: z.coerce.number().int().min(0).max(MAX_PAGE).default(0),
  size: z.coerce.number().int().min(1).max(10000).default(20),
  sortBy: text(TEXT_LIMITS.identifier).optional(),
  descendingOrder: z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]).default(true),
});
export type PageQuery = z.infer<typeof pageQuerySchema>;

export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({
    content: list(item, LIST_LIMITS.rows),
    totalPages: z.number().int(),
    totalElements: z.number().int(),
    number: z.number().int(),
    size: z.number().int(),
  });

export const PAGINATION_OPTIONS = [10, 50, 100] as const;
