import { z } from 'zod';
import { ENERGY_TYPES, hasValidEvnCheckDigit, NVR_PATTERN, VKM_PATTERN } from '@railwatt/contracts';

/**
 * Form messages of product.md §5 travel through zod as a small JSON token (rule + params) and are
 * translated where they are shown, with the field's translated label put in. The English texts are
 * verbatim from the spec ('The {field} field is required', 'The {field} field must be a decimal' ...).
 */
export type RuleName =
  'required' | 'decimal' | 'digits' | 'integer' | 'is_not' | 'max' | 'max_value' | 'min_value' | 'regex';
export interface RuleMessage {
  rule: RuleName;
  field: string;
  length?: number;
  min?: number;
  max?: number;
}
const msg = (m: RuleMessage) => JSON.stringify(m);

export function readRuleMessage(raw: string | undefined): RuleMessage | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as RuleMessage;
    return typeof value === 'object' && value && 'rule' in value ? value : null;
  } catch {
    return null;
  }
}

const DECIMAL = /^-?\d+([.,]\d+)?$/;
const INTEGER = /^-?\d+$/;
const toNumber = (v: string) => Number(v.replace(',', '.'));

const required = (field: string) =>
  z
    .string()
    .trim()
    .min(1, msg({ rule: 'required', field }));
const maxChars = (field: string, length: number) => z.string().max(length, msg({ rule: 'max', field, length }));

const digits = (field: string, length: number) =>
  required(field).regex(new RegExp(`^\\d{${length}}$`), msg({ rule: 'digits', field, length }));

/** An optional decimal within [min, max]; '' means not given. */
const optionalDecimal = (field: string, min: number, max: number) =>
  z
    .string()
    .trim()
    .refine((v) => v === '' || DECIMAL.test(v), msg({ rule: 'decimal', field }))
    .refine((v) => v === '' || !DECIMAL.test(v) || toNumber(v) >= min, msg({ rule: 'min_value', field, min }))
    .refine((v) => v === '' || !DECIMAL.test(v) || toNumber(v) <= max, msg({ rule: 'max_value', field, max }));

const requiredInteger = (field: string, min: number, max: number) =>
  required(field)
    .refine((v) => INTEGER.test(v.trim()), msg({ rule: 'integer', field }))
    .refine((v) => !INTEGER.test(v.trim()) || Number(v) >= min, msg({ rule: 'min_value', field, min }))
    .refine((v) => !INTEGER.test(v.trim()) || Number(v) <= max, msg({ rule: 'max_value', field, max }));

export const consumptionPointFormSchema = z.object({
  uuid: z.string().optional(),
  nvr: required('nvr').pipe(z.string().regex(NVR_PATTERN, msg({ rule: 'regex', field: 'nvr' }))),
  // The contract's VKM rule (2-5 upper-case letters), so the form refuses what the server refuses.
  vkm: required('vkm')
    .pipe(maxChars('vkm', 5))
    .pipe(z.string().regex(VKM_PATTERN, msg({ rule: 'regex', field: 'vkm' }))),
  emsId: required('ems_id')
    .pipe(maxChars('ems_id', 50))
    .pipe(z.string().regex(/^[A-Za-z0-9-]+$/, msg({ rule: 'regex', field: 'ems_id' }))),
  emsType: maxChars('ems_type', 50),
  // Channels 1 to 99 (product.md §9).
  channels: requiredInteger('channels', 1, 99),
  energyTypes: z.array(z.enum(ENERGY_TYPES)).min(1, msg({ rule: 'required', field: 'energy_types' })),
});

export const registrationFormSchema = z
  .object({
    uuid: z.string().optional(),
    name: required('name').pipe(maxChars('name', 100)),
    // EVN: exactly 12 digits (product.md §3), the last the UIC check digit (the contract's rule).
    evn: digits('evn', 12).refine(
      (v) => !/^\d{12}$/.test(v) || hasValidEvnCheckDigit(v),
      msg({ rule: 'is_not', field: 'evn' }),
    ),
    description: maxChars('description', 255),
    owner: required('owner'),
    typeMode: z.enum(['existing', 'new']),
    tractionUnitTypeRef: z.string(),
    newType: z.object({
      name: z.string(),
      maxSpeed: optionalDecimal('max_speed', 0, 1000),
      maxPower: optionalDecimal('max_power', 0, 100),
      generation: z.boolean(),
      consumption: z.boolean(),
    }),
    /** 'YYYY-MM-DD' from which the values apply (a change from a date makes a new segment). */
    validFrom: z.string().nullable(),
    consumptionPoints: z.array(consumptionPointFormSchema),
  })
  .superRefine((value, ctx) => {
    if (value.typeMode === 'existing' && value.tractionUnitTypeRef.trim() === '') {
      ctx.addIssue({
        code: 'custom',
        path: ['tractionUnitTypeRef'],
        message: msg({ rule: 'required', field: 'type' }),
      });
    }
    if (value.typeMode === 'new') {
      if (value.newType.name.trim() === '') {
        ctx.addIssue({
          code: 'custom',
          path: ['newType', 'name'],
          message: msg({ rule: 'required', field: 'type_name' }),
        });
      } else if (value.newType.name.length > 100) {
        ctx.addIssue({
          code: 'custom',
          path: ['newType', 'name'],
          message: msg({ rule: 'max', field: 'type_name', length: 100 }),
        });
      }
    }
  });

export type RegistrationFormValues = z.infer<typeof registrationFormSchema>;
export type ConsumptionPointFormValues = z.infer<typeof consumptionPointFormSchema>;

export const emptyConsumptionPoint = (): ConsumptionPointFormValues => ({
  nvr: '',
  vkm: '',
  emsId: '',
  emsType: '',
  channels: '',
  energyTypes: ['ACTIVE_CONSUMED', 'ACTIVE_REGENERATED'],
});

export const emptyRegistration = (): RegistrationFormValues => ({
  name: '',
  evn: '',
  description: '',
  owner: '',
  typeMode: 'existing',
  tractionUnitTypeRef: '',
  newType: { name: '', maxSpeed: '', maxPower: '', generation: false, consumption: true },
  validFrom: null,
  consumptionPoints: [emptyConsumptionPoint()],
});
