import { z } from 'zod';
import {
  EXPORT_DESTINATION_TYPES,
  ORGANISATION_TYPES,
  REPORT_FILE_FORMATS,
  REPORT_LANGUAGES,
  splitEmails,
  type OrganisationType,
  type SaveEntity,
  type VersionedEntity,
} from '@railwatt/contracts';

/**
 * The organisation registration form (product.md §3 "Organisation", §5). Messages are i18n keys
 * under `administration.organisations.validation.` (the page puts the field's label in); the rules
 * are the contract's (organisationAttributesSchema), checked here first so they show at the field.
 */
const EMAIL = /^[^\s@;]+@[^\s@;]+\.[^\s@;]+$/;

const optionalInteger = (min: number, max: number) =>
  z
    .string()
    .trim()
    .refine((v) => v === '' || (/^\d+$/.test(v) && Number(v) >= min && Number(v) <= max), 'integer');

export const organisationFormSchema = z
  .object({
    uuid: z.string().optional(),
    name: z.string().trim().min(1, 'required').max(200),
    orgId: z.string().trim().min(1, 'required').max(100),
    organisationTypes: z.array(z.enum(ORGANISATION_TYPES)).min(1, 'types_required'),
    marketFunctions: z.array(z.string()),
    emails: z
      .string()
      .max(4000)
      .refine((v) => splitEmails(v).length > 0, 'emails_required')
      .refine((v) => splitEmails(v).every((e) => EMAIL.test(e)), 'emails_invalid'),
    language: z.enum(REPORT_LANGUAGES).nullable(),
    fileFormat: z.enum(REPORT_FILE_FORMATS).nullable(),
    correction: z.boolean(),
    destinationType: z.enum(EXPORT_DESTINATION_TYPES).nullable(),
    protocol: z.string().max(64),
    host: z.string().max(2000),
    port: optionalInteger(1, 65535),
    remoteDirectory: z.string().max(2000),
    webserviceUri: z.string().max(2000),
    scheduledReportFirstDay: optionalInteger(0, 100000),
    parentOrganisationRef: z.string().nullable(),
    exchangeAdminRef: z.string().nullable(),
    validFrom: z.string().nullable(),
    validTo: z.string().nullable(),
  })
  .refine((v) => !v.validFrom || !v.validTo || v.validFrom < v.validTo, { path: ['validTo'], message: 'dates' });

export type OrganisationFormValues = z.infer<typeof organisationFormSchema>;

export const emptyOrganisationForm = (): OrganisationFormValues => ({
  name: '',
  orgId: '',
  organisationTypes: [],
  marketFunctions: [],
  emails: '',
  language: null,
  fileFormat: null,
  correction: false,
  destinationType: null,
  protocol: '',
  host: '',
  port: '',
  remoteDirectory: '',
  webserviceUri: '',
  scheduledReportFirstDay: '',
  parentOrganisationRef: null,
  exchangeAdminRef: null,
  validFrom: null,
  validTo: null,
});

const str = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
const obj = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const oneOf = <T extends string>(values: readonly T[], v: unknown): T | null =>
  values.includes(v as T) ? (v as T) : null;

/** A stored organisation (attributes merged on the entity) as form values; the validity is asked anew. */
export function toOrganisationForm(entity: VersionedEntity): OrganisationFormValues {
  const report = obj(entity.reportSettings);
  const exportConfig = obj(entity.exportConfig);
  return {
    ...emptyOrganisationForm(),
    uuid: entity.uuid,
    name: entity.name,
    orgId: str(entity.orgId),
    organisationTypes: Array.isArray(entity.organisationTypes)
      ? (entity.organisationTypes as unknown[]).filter((t): t is OrganisationType =>
          (ORGANISATION_TYPES as readonly unknown[]).includes(t),
        )
      : [],
    marketFunctions: Array.isArray(entity.marketFunctions) ? (entity.marketFunctions as unknown[]).map(str) : [],
    emails: str(entity.emails),
    language: oneOf(REPORT_LANGUAGES, report.language),
    fileFormat: oneOf(REPORT_FILE_FORMATS, report.fileFormat),
    correction: report.correction === true,
    destinationType: oneOf(EXPORT_DESTINATION_TYPES, exportConfig.destinationType),
    protocol: str(exportConfig.protocol),
    host: str(exportConfig.host),
    port: str(exportConfig.port),
    remoteDirectory: str(exportConfig.remoteDirectory),
    webserviceUri: str(exportConfig.webserviceUri),
    scheduledReportFirstDay: str(entity.scheduledReportFirstDay),
    parentOrganisationRef: str(entity.parentOrganisationRef) || null,
    exchangeAdminRef: str(entity.exchangeAdminRef) || null,
  };
}

const defined = <T extends Record<string, unknown>>(o: T): Partial<T> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== '')) as Partial<T>;

/**
 * The body of POST /domain/save for an organisation. `timeRange` comes from the page (the area's
 * time zone); `withExchangeAdmin` is false for roles that may not set the exchange admin
 * (product.md §2: erex-administrator only), so the stored one is kept.
 */
export function toOrganisationSave(
  values: OrganisationFormValues,
  timeRange: { start: string; end: string } | undefined,
  stored: VersionedEntity | undefined,
  withExchangeAdmin: boolean,
): SaveEntity {
  const isBranch = values.organisationTypes.includes('BRANCH');
  return {
    type: 'Organisation',
    ...(values.uuid ? { uuid: values.uuid } : {}),
    name: values.name.trim(),
    orgId: values.orgId.trim(),
    organisationTypes: values.organisationTypes,
    marketFunctions: values.marketFunctions,
    emails: splitEmails(values.emails).join(';'),
    reportSettings: defined({
      language: values.language ?? undefined,
      fileFormat: values.fileFormat ?? undefined,
      correction: values.correction,
    }),
    exportConfig: defined({
      destinationType: values.destinationType ?? undefined,
      protocol: values.protocol.trim(),
      host: values.host.trim(),
      port: values.port.trim() === '' ? undefined : Number(values.port),
      remoteDirectory: values.remoteDirectory.trim(),
      webserviceUri: values.webserviceUri.trim(),
    }),
    scheduledReportFirstDay:
      values.scheduledReportFirstDay.trim() === '' ? null : Number(values.scheduledReportFirstDay),
    parentOrganisationRef: isBranch ? values.parentOrganisationRef : null,
    exchangeAdminRef: withExchangeAdmin
      ? values.exchangeAdminRef
      : typeof stored?.exchangeAdminRef === 'string'
        ? stored.exchangeAdminRef
        : null,
    // Attributes this form does not show are kept as stored.
    ...(typeof stored?.countryCode === 'string' ? { countryCode: stored.countryCode } : {}),
    ...(typeof stored?.settlementAreaRef === 'string' ? { settlementAreaRef: stored.settlementAreaRef } : {}),
    ...(timeRange ? { timeRange } : {}),
  };
}
