import { z } from 'zod';

/** One paging contract for every list (product.md §9 / calls.md §9). Pages are zero-based on the wire. */
export const pageQuerySchema = z.object({
  page: z.coerce.number().int().min(0).default(0),
  size: z.coerce.number().int().min(1).max(10000).default(20),
  sortBy: z.string().optional(),
  descendingOrder: z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]).default(true),
});
export type PageQuery = z.infer<typeof pageQuerySchema>;

export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({
    content: z.array(item),
    totalPages: z.number().int(),
    totalElements: z.number().int(),
    number: z.number().int(),
    size: z.number().int(),
  });

export const PAGINATION_OPTIONS = [10, 50, 100] as const;
