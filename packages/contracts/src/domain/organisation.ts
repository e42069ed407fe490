import { z } from 'zod';
import { MESSAGES } from '../errors.js';
import { LIST_LIMITS, TEXT_LIMITS, list, text } from '../limits.js';
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

export const emailsSchema = text(TEXT_LIMITS.comment)
  .refine((v) => splitEmails(v).length > 0, { message: 'At least one notification e-mail is required' })
  .refine((v) => splitEmails(v).every((e) => EMAIL.test(e)), { message: 'The email field must be a valid email' });

/**
 * How the organisation's reports are made (calls.md §3 "Report schedule": language, file format,
 * correction flag). Like every attribute shape, unknown keys are stripped (z.object's default)
 * rather than refused: a workbook or an older client may carry extra keys, and nothing unknown
 * reaches the jsonb column.
 */
export const REPORT_LANGUAGES = ['English', 'Danish', 'Norwegian', 'Swedish', 'Finnish', 'Spanish'] as const;
export const REPORT_FILE_FORMATS = ['xlsx', 'csv', 'xml'] as const;
export const reportSettingsSchema = z.object({
  language: z.enum(REPORT_LANGUAGES).optional(),
  fileFormat: z.enum(REPORT_FILE_FORMATS).optional(),
  correction: z.boolean().optional(),
});

/** Where the organisation's exports go (calls.md §3 destinations); credentials are stored apart, encrypted. */
export const EXPORT_DESTINATION_TYPES = ['email', 'ftp', 'sftp', 'webservice'] as const;
export const exportConfigSchema = z.object({
  destinationType: z.enum(EXPORT_DESTINATION_TYPES).optional(),
  protocol: text(TEXT_LIMITS.code).optional(),
  host: text(TEXT_LIMITS.address).optional(),
  port: z.number().int().min(1).max(65535).optional(),
  remoteDirectory: text(TEXT_LIMITS.address).optional(),
  webserviceUri: text(TEXT_LIMITS.address).optional(),
});

export const organisationAttributesSchema = z.object({
  orgId: text(TEXT_LIMITS.identifier).trim().min(1),
  organisationTypes: list(organisationTypeSchema, LIST_LIMITS.small).min(
    1,
    'At least one organisation type is required',
  ),
  marketFunctions: list(text(TEXT_LIMITS.identifier), LIST_LIMITS.small).default([]),
  /** Notification e-mails separated by semicolons; at least one valid address. */
  emails: emailsSchema,
  reportSettings: reportSettingsSchema.default({}),
  exportConfig: exportConfigSchema.default({}),
  /** Days counting back from today. */
  scheduledReportFirstDay: z.number().int().min(0).nullable().optional(),
  /** The exchange admin organisation this organisation is connected to. */
  exchangeAdminRef: z.uuid().nullable().optional(),
  /** For a BRANCH: the organisation it belongs to. */
  parentOrganisationRef: z.uuid().nullable().optional(),
  countryCode: text(TEXT_LIMITS.code).nullable().optional(),
  /** For an INFRASTRUCTURE_MANAGER: the settlement area (entity uuid) it manages. */
  settlementAreaRef: z.uuid().nullable().optional(),
});
export type OrganisationAttributes = z.infer<typeof organisationAttributesSchema>;

/** GET /domain/organisations/branch/all */
export const branchSchema = z.object({
  uuid: z.uuid(),
  name: text(TEXT_LIMITS.name),
  organisationUuid: z.uuid().nullable(),
});

/**
 * GET /domain/organisations/{x}/marketfunction (one) and /organisations/tenant/{tenantId}/marketfunction
 * (a list, narrowed by orgName): the organisation's identity and the market functions it grants.
 * Kept small on purpose: callers want "which functions does this organisation give", not the whole
 * versioned entity (which /organisation/id/{uuid} already serves).
 */
export const organisationMarketFunctionsSchema = z.object({
  uuid: z.uuid(),
  name: text(TEXT_LIMITS.name),
  orgId: text(TEXT_LIMITS.identifier).nullable(),
  marketFunctions: list(text(TEXT_LIMITS.identifier), LIST_LIMITS.small),
});
export type OrganisationMarketFunctions = z.infer<typeof organisationMarketFunctionsSchema>;

/** POST /domain/organisations/organisationtype/save: new organisation types from timeRange.start (default now). */
export const organisationTypeSaveSchema = z.object({
  uuid: z.uuid(),
  organisationTypes: list(organisationTypeSchema, LIST_LIMITS.small).min(
    1,
    'At least one organisation type is required',
  ),
  timeRange: timeRangeSchema.optional(),
  comments: text(TEXT_LIMITS.comment).nullable().optional(),
});
export type OrganisationTypeSave = z.infer<typeof organisationTypeSaveSchema>;

/** Credentials of an organisation's export destination: a password, or a private key with passphrase. */
export const organisationCredentialsSchema = z.union([
  z
    .object({ username: text(TEXT_LIMITS.identifier).trim().min(1), password: text(TEXT_LIMITS.secret).min(1) })
    .strict(),
  z
    .object({
      username: text(TEXT_LIMITS.identifier).trim().min(1),
      privateKey: text(TEXT_LIMITS.secret).min(1),
      passphrase: text(TEXT_LIMITS.secret).default(''),
    })
    .strict(),
]);
export type OrganisationCredentials = z.infer<typeof organisationCredentialsSchema>;

/** JSON.parse that answers undefined for text that is not JSON. */
export function parseJson(content: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(content) as unknown };
  } catch {
    return { ok: false };
  }
}

/**
 * A service-account file as uploaded (its text, product.md §5 'The file content is not valid JSON'):
 * parsed by the schema, so the browser (before sending) and the server (whatever a client sends)
 * refuse bad content with the same message. The JSON holds the credentials (username and password,
 * or username, privateKey and passphrase).
 */
export const serviceAccountFileSchema = text(TEXT_LIMITS.secret)
  .transform((content, ctx) => {
    const parsed = parseJson(content);
    if (!parsed.ok) {
      ctx.addIssue({ code: 'custom', message: MESSAGES.invalidJson });
      return z.NEVER;
    }
    return parsed.value;
  })
  .pipe(organisationCredentialsSchema);

/**
 * POST /domain/organisations/organisationtype-with-credentials: the credentials as an object, or the
 * uploaded service-account file's text (serviceAccountFile); exactly one of them.
 */
export const organisationTypeWithCredentialsSchema = organisationTypeSaveSchema
  .extend({
    credentials: organisationCredentialsSchema.optional(),
    serviceAccountFile: serviceAccountFileSchema.optional(),
  })
  .refine((v) => (v.credentials === undefined) !== (v.serviceAccountFile === undefined), {
    message: 'Send either credentials or a service account file',
    path: ['credentials'],
  });
export type OrganisationTypeWithCredentials = z.infer<typeof organisationTypeWithCredentialsSchema>;

/**
 * What the server tells about stored credentials: who and what kind, never the secret itself (it
 * is stored encrypted and only read back by the export that uses it).
 */
export const storedCredentialsSchema = z.object({
  username: text(TEXT_LIMITS.identifier),
  kind: z.enum(['password', 'privateKey']),
  updatedAt: text(TEXT_LIMITS.code),
  updatedBy: text(TEXT_LIMITS.identifier),
});
export type StoredCredentials = z.infer<typeof storedCredentialsSchema>;

export const organisationTypeWithCredentialsResultSchema = z.object({
  organisation: versionedEntitySchema,
  credentials: storedCredentialsSchema,
});
