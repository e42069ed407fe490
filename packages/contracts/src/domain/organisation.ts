import { z } from 'zod';
import { timeRangeSchema, versionedEntitySchema } from './entity.js';

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
  /** For an INFRASTRUCTURE_MANAGER: the settlement area (entity uuid) it manages. */
  settlementAreaRef: z.uuid().nullable().optional(),
});
export type OrganisationAttributes = z.infer<typeof organisationAttributesSchema>;

/** GET /domain/organisations/branch/all */
export const branchSchema = z.object({ uuid: z.uuid(), name: z.string(), organisationUuid: z.uuid().nullable() });

/**
 * GET /domain/organisations/{x}/marketfunction (one) and /organisations/tenant/{tenantId}/marketfunction
 * (a list, narrowed by orgName): the organisation's identity and the market functions it grants.
 * Kept small on purpose: callers want "which functions does this organisation give", not the whole
 * versioned entity (which /organisation/id/{uuid} already serves).
 */
export const organisationMarketFunctionsSchema = z.object({
  uuid: z.uuid(),
  name: z.string(),
  orgId: z.string().nullable(),
  marketFunctions: z.array(z.string()),
});
export type OrganisationMarketFunctions = z.infer<typeof organisationMarketFunctionsSchema>;

/** POST /domain/organisations/organisationtype/save: new organisation types from timeRange.start (default now). */
export const organisationTypeSaveSchema = z.object({
  uuid: z.uuid(),
  organisationTypes: z.array(organisationTypeSchema).min(1, 'At least one organisation type is required'),
  timeRange: timeRangeSchema.optional(),
  comments: z.string().nullable().optional(),
});
export type OrganisationTypeSave = z.infer<typeof organisationTypeSaveSchema>;

/** Credentials of an organisation's export destination: a password, or a private key with passphrase. */
export const organisationCredentialsSchema = z.union([
  z.object({ username: z.string().trim().min(1), password: z.string().min(1) }).strict(),
  z
    .object({
      username: z.string().trim().min(1),
      privateKey: z.string().min(1),
      passphrase: z.string().default(''),
    })
    .strict(),
]);
export type OrganisationCredentials = z.infer<typeof organisationCredentialsSchema>;

/** POST /domain/organisations/organisationtype-with-credentials */
export const organisationTypeWithCredentialsSchema = organisationTypeSaveSchema.extend({
  credentials: organisationCredentialsSchema,
});
export type OrganisationTypeWithCredentials = z.infer<typeof organisationTypeWithCredentialsSchema>;

/**
 * What the server tells about stored credentials: who and what kind, never the secret itself (it
 * is stored encrypted and only read back by the export that uses it).
 */
export const storedCredentialsSchema = z.object({
  username: z.string(),
  kind: z.enum(['password', 'privateKey']),
  updatedAt: z.string(),
  updatedBy: z.string(),
});
export type StoredCredentials = z.infer<typeof storedCredentialsSchema>;

export const organisationTypeWithCredentialsResultSchema = z.object({
  organisation: versionedEntitySchema,
  credentials: storedCredentialsSchema,
});
