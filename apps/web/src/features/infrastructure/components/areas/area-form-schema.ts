import { z } from 'zod';
import { AREA_KINDS_INFRASTRUCTURE, AREA_PARENTS, TEXT_LIMITS, type InfrastructureAreaKind } from '@railwatt/contracts';

/**
 * The area registration form. Messages are i18n keys under `areas.form` with the field named
 * ('required:name'), translated where shown with product.md §5's wording ('The {field} field is required').
 */
export const areaFormSchema = z
  .object({
    kind: z.enum(AREA_KINDS_INFRASTRUCTURE, { message: 'required:type' }),
    name: z.string().trim().min(1, 'required:name').max(TEXT_LIMITS.name, `max:name:${TEXT_LIMITS.name}`),
    parentRef: z.string().nullable(),
    /** A grid area's price area and tax area (optional; other kinds have neither). */
    priceAreaRef: z.string().nullable(),
    taxAreaRef: z.string().nullable(),
    validFrom: z.string().nullable(),
    validTo: z.string().nullable(),
    comment: z.string().max(TEXT_LIMITS.comment, `max:comment:${TEXT_LIMITS.comment}`),
  })
  .superRefine((value, ctx) => {
    if (AREA_PARENTS[value.kind] && !value.parentRef) {
      ctx.addIssue({ code: 'custom', path: ['parentRef'], message: 'required:parent' });
    }
    if (value.validFrom && value.validTo && value.validFrom >= value.validTo) {
      ctx.addIssue({ code: 'custom', path: ['validTo'], message: 'date_order' });
    }
  });

export type AreaFormValues = z.infer<typeof areaFormSchema>;

/**
 * The areas a grid area names besides its parent: the price area its energy is priced in and the tax
 * area it lies in (tax by tax category and tax area). Both are optional and offered only for grid areas.
 */
export const GRID_AREA_OVERLAYS = [
  { field: 'priceAreaRef', kind: 'pricearea', labelKey: 'entry.price_area' },
  { field: 'taxAreaRef', kind: 'taxarea', labelKey: 'entry.tax_area' },
] as const satisfies readonly { field: keyof AreaFormValues; kind: InfrastructureAreaKind; labelKey: string }[];

export const emptyAreaForm = (kind: InfrastructureAreaKind = 'gridarea'): AreaFormValues => ({
  kind,
  name: '',
  parentRef: null,
  priceAreaRef: null,
  taxAreaRef: null,
  validFrom: null,
  validTo: null,
  comment: '',
});

/** 'required:name' -> the key and values for `t`. */
export function formMessage(raw: string | undefined): { key: string; field?: string; max?: string } | undefined {
  if (!raw) return undefined;
  const [rule, field, max] = raw.split(':');
  return { key: `form.${rule}`, field, max };
}
