import { z } from 'zod';

/** Organisation types (product.md §3); EXCHANGE_ADMIN and DCS_ADMIN mark the exchange parties. */
export const ORGANISATION_TYPES = [
  'ENERGY_RETAILER',
  'VEHICLE_KEEPER',
  'TRACTION_UNIT_MAINTENANCE_COMPANY',
  'TRACTION_UNIT_PRODUCER',
  'BRANCH',
  'INFRASTRUCTURE_MANAGER',
  'ENERGY_USE_SETTLEMENT_RESPONSIBLE',
  'RAILWAY_UNDERTAKING',
  'BALANCE_SUPPLIER',
  'EXCHANGE_ADMIN',
  'DCS_ADMIN',
] as const;
export const organisationTypeSchema = z.enum(ORGANISATION_TYPES);
export type OrganisationType = z.infer<typeof organisationTypeSchema>;

const EMAIL = /^[^\s@;]+@[^\s@;]+\.[^\s@;]+$/;

/** 'a@x.no; b@y.se' -> ['a@x.no', 'b@y.se'] (empty parts dropped). */
export const splitEmails = (value: string): string[] =>
  value
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean);

export const emailsSchema = z
  .string()
  .refine((v) => splitEmails(v).length > 0, { message: 'At least one notification e-mail is required' })
  .refine((v) => splitEmails(v).every((e) => EMAIL.test(e)), { message: 'The email field must be a valid email' });

export const organisationAttributesSchema = z.object({
  orgId: z.string().trim().min(1),
  organisationTypes: z.array(organisationTypeSchema).min(1, 'At least one organisation type is required'),
  marketFunctions: z.array(z.string()).default([]),
  /** Notification e-mails separated by semicolons; at least one valid address. */
  emails: emailsSchema,
  reportSettings: z.record(z.string(), z.unknown()).default({}),
  exportConfig: z.record(z.string(), z.unknown()).default({}),
  /** Days counting back from today. */
  scheduledReportFirstDay: z.number().int().min(0).nullable().optional(),
  /** The exchange admin organisation this organisation is connected to. */
  exchangeAdminRef: z.uuid().nullable().optional(),
  /** For a BRANCH: the organisation it belongs to. */
  parentOrganisationRef: z.uuid().nullable().optional(),
  countryCode: z.string().nullable().optional(),
});
export type OrganisationAttributes = z.infer<typeof organisationAttributesSchema>;

/** GET /domain/organisations/branch/all */
export const branchSchema = z.object({ uuid: z.uuid(), name: z.string(), organisationUuid: z.uuid().nullable() });
