import {
  AREA_WIDE_ROLES,
  REPORT_FORMATS,
  REPORT_LOCALES,
  type ProcedureName,
  type ProcedureResultStatus,
  type ReportColumnKind,
  type ReportDescription,
  type ReportLanguage,
  type ReportLocales,
  type ReportName,
  type ReportRefKind,
  type ReportUnit,
  type Role,
} from '@railwatt/contracts';
import type { SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { VisibleOrganisations } from '../organisation/visibility.js';
import { COLUMN_TEXTS, type ColumnTextKey, type Texts } from './texts.js';

/**
 * The report kit (issue 20 item 1). A report is declared once with `defineReport` in its own file of
 * this folder and listed in index.ts ALL_REPORTS (an imported list: nothing registers itself). The
 * declaration is all there is to a report: its name as product.md writes it, who may order it, the
 * refs and parameters it takes, the result statuses it reads, its columns with units, the one
 * set-based query that makes its rows, and its texts in the six languages. The order (service.ts),
 * the job that streams the rows (rows.ts) into a renderer (formats/report) and GET /domain/reports
 * read nothing else.
 */

/** A ref kind a report takes: required or optional, one or several. */
export interface ReportRef {
  kind: ReportRefKind;
  required?: boolean;
  many?: boolean;
}

export interface ReportColumn {
  /** The column's name in the query's output, the XML element and the CSV/XLSX header key (camelCase). */
  key: string;
  kind: ReportColumnKind;
  unit?: ReportUnit;
  /** Its header in the six languages; default the shared COLUMN_TEXTS of the same key. */
  texts?: Texts;
}

/**
 * Where a report's figures come from when they belong to a versioned result (calls.md §4 "Reports use
 * statuses by role"): the procedure whose result is read, and whether it is a grid-area report (a
 * consumer reads approved results only). null: raw data without a result (CEBD records).
 */
export interface ReportSource {
  procedure: ProcedureName;
  gridArea?: boolean;
  /** The TPA settlement's versions (netherlands), not the plain ones. */
  tpa?: boolean;
  /** Approved versions only, whoever orders (the *settlementdependency reports). */
  approvedOnly?: boolean;
  /**
   * The query picks a version per month of the period itself (a range of months, each settled on
   * its own): the order resolves no single result; scope.resultId is the one processingId names, or null.
   */
  perMonth?: boolean;
}

/** What a report's query is given: the order, resolved. */
export interface ReportScope<P = unknown> {
  tenant: string;
  /** The zone months, days and hours are read in (the order's zoneId, default the area's). */
  zone: string;
  currency: string;
  language: ReportLanguage;
  /** [start, end) as ISO instants. */
  period: { start: string; end: string };
  /** The entity refs of the order by kind (uuids); absent: every one. */
  refs: Partial<Record<Exclude<ReportRefKind, 'operatingday'>, readonly string[]>>;
  /** The organisations the orderer may see (organisation/visibility.ts); null: every organisation. */
  organisations: VisibleOrganisations;
  /** The result the figures come from (source reports), resolved by status or named by processingId. */
  resultId: number | null;
  /** The statuses the orderer's roles read (calls.md §4). */
  statuses: readonly ProcedureResultStatus[];
  /** Master data (names) as of this moment. */
  refTime: string;
  parameters: P;
}

export interface ReportDeclaration<P> {
  name: ReportName;
  /** The XML family (one XSD per family in docs/reports/): reports of a family share element names. */
  family: string;
  title: Texts;
  /** Who may order it (within contracts REPORT_ORDERERS). */
  roles: readonly Role[];
  period: 'month' | 'months';
  /** The area kinds it is made in (contracts TPA_SETTLEMENT_AREAS, 'portugal'); absent: every area. */
  areas?: readonly string[];
  refs?: readonly ReportRef[];
  /** Its reportSpecificParameters (contracts: named scalars), parsed; a bad one is a 400. */
  parameters?: z.ZodType<P>;
  source: ReportSource | null;
  columns: readonly ReportColumn[];
  /**
   * Output columns of the query the rows are sorted by; together they name one row (paging relies on
   * it). A sort key need not be a shown column (an invoice appendix's total row sorts last by one).
   */
  sortKeys: readonly string[];
  /** The one set-based SELECT; its output columns are the column keys (quoted: "meteredEnergy"). */
  query(scope: ReportScope<P>): SQL;
}

/**
 * Who may order the reports of units' CEBD records (energyrawdata, consumption, 15minoverview) and
 * for what: the area's staff every unit; a vehicle keeper, cp-admin or consumer the units its
 * organisations own. A month of the ordered consumption points or traction units, no result read.
 */
export const UNIT_RECORDS_ORDER = {
  roles: [...AREA_WIDE_ROLES, 'consumer', 'cp-admin', 'vehicle-keeper'],
  period: 'month',
  refs: [
    { kind: 'consumptionpoint', many: true },
    { kind: 'tractionunit', many: true },
  ],
  source: null,
} as const satisfies Pick<ReportDeclaration<unknown>, 'roles' | 'period' | 'refs' | 'source'>;

export interface ReportDefinition<P = unknown> extends Omit<ReportDeclaration<P>, 'refs' | 'parameters'> {
  refs: readonly ReportRef[];
  parameters: z.ZodType<P>;
}

const IDENTIFIER = /^[a-z][A-Za-z0-9]*$/;

/** Declares a report; a malformed declaration (a header missing, a sort key not a column) fails at start. */
export function defineReport<P = Record<string, never>>(declaration: ReportDeclaration<P>): ReportDefinition<P> {
  const keys = declaration.columns.map((c) => c.key);
  for (const column of declaration.columns) {
    if (!IDENTIFIER.test(column.key)) throw new Error(`${declaration.name}: column key ${column.key} is not camelCase`);
    if (!column.texts && !(column.key in COLUMN_TEXTS))
      throw new Error(`${declaration.name}: column ${column.key} has no texts`);
  }
  if (new Set(keys).size !== keys.length) throw new Error(`${declaration.name}: a column key twice`);
  if (declaration.sortKeys.length === 0) throw new Error(`${declaration.name}: no sort keys`);
  if (!IDENTIFIER.test(declaration.family)) throw new Error(`${declaration.name}: family must be camelCase`);
  return {
    ...declaration,
    refs: declaration.refs ?? [],
    parameters: declaration.parameters ?? (z.object({}).strict() as unknown as z.ZodType<P>),
  };
}

/** A column's header in a language, without its unit. */
export const columnText = (column: ReportColumn, language: ReportLanguage): string =>
  (column.texts ?? COLUMN_TEXTS[column.key as ColumnTextKey])[language];

/** The unit as a header shows it: the area's currency for money. */
export const unitText = (unit: ReportUnit | undefined, currency: string): string | null => {
  if (!unit) return null;
  if (unit === 'currency') return currency;
  if (unit === 'currency/MWh') return `${currency}/MWh`;
  return unit;
};

/** "Metered energy (kWh)". */
export const columnHeader = (column: ReportColumn, language: ReportLanguage, currency: string): string => {
  const unit = unitText(column.unit, currency);
  return unit ? `${columnText(column, language)} (${unit})` : columnText(column, language);
};

/**
 * calls.md §4: "Reports use statuses by role: consumers use approved and corrected (approved only for
 * grid-area reports); others use approved and success." A user holding an area-wide role reads as
 * the area's staff does; a consumer (without one) as a consumer; every other role as "others".
 */
export function reportStatuses(roles: readonly Role[], gridAreaReport: boolean): ProcedureResultStatus[] {
  const areaWide = roles.some((r) => AREA_WIDE_ROLES.includes(r));
  if (!areaWide && roles.includes('consumer')) return gridAreaReport ? ['approved'] : ['approved', 'corrected'];
  return ['approved', 'success'];
}

/** The statuses a source report reads for `roles`: approved only where the report says so, else by role. */
export function sourceStatuses(source: ReportSource | null, roles: readonly Role[]): ProcedureResultStatus[] {
  if (!source) return [];
  return source.approvedOnly ? ['approved'] : reportStatuses(roles, source.gridArea ?? false);
}

/** Is the report made in an area of `kind` (its `areas`, default every one)? */
export const offeredIn = (report: Pick<ReportDefinition, 'areas'>, kind: string | null | undefined): boolean =>
  !report.areas || report.areas.includes(kind ?? '');

/** The names of a zod object's keys and whether each is required (for GET /domain/reports). */
function parameterList(schema: z.ZodType): { name: string; required: boolean }[] {
  if (!(schema instanceof z.ZodObject)) return [];
  return Object.entries(schema.shape as Record<string, z.ZodType>).map(([name, field]) => ({
    name,
    required: !field.safeParse(undefined).success,
  }));
}

/** A report as GET /domain/reports answers it for a user holding `roles`. */
export function describeReport(
  report: ReportDefinition,
  roles: readonly Role[],
  language: ReportLanguage,
  currency: string,
): ReportDescription {
  return {
    name: report.name,
    family: report.family,
    title: report.title[language],
    period: report.period,
    refs: report.refs.map((r) => ({ kind: r.kind, required: r.required ?? false, many: r.many ?? false })),
    parameters: parameterList(report.parameters),
    statuses: sourceStatuses(report.source, roles),
    formats: [...REPORT_FORMATS],
    roles: [...report.roles],
    columns: report.columns.map((c) => ({
      key: c.key,
      kind: c.kind,
      unit: c.unit ?? null,
      header: columnHeader(c, language, currency),
    })),
  };
}

/** GET /domain/reports/{report}: its title and column headers in every language. */
export function reportLocales(report: ReportDefinition): ReportLocales {
  const locales = Object.fromEntries(
    REPORT_LOCALES.map((language) => [
      language,
      {
        title: report.title[language],
        columns: Object.fromEntries(report.columns.map((c) => [c.key, columnText(c, language)])),
      },
    ]),
  ) as ReportLocales['locales'];
  return { name: report.name, locales };
}

/** May a user holding `roles` order the report? */
export const mayOrder = (report: Pick<ReportDefinition, 'roles'>, roles: readonly Role[]): boolean =>
  roles.some((r) => report.roles.includes(r));
