import { randomUUID } from 'node:crypto';
import {
  DEFAULT_TIME_RANGE,
  PROCESSING_CONFIG_SCHEMAS,
  READ_ONLY_CONFIG_PROCEDURES,
  TPA_CONFIG_PROCEDURES,
  TRANSMISSION_UNIT_COUNTRIES,
  defaultConfig,
  tuSettlementConfigSchema,
  type ConfigProcedure,
  type FieldError,
  type ProcessingConfigList,
  type ProcessingConfigSegment,
  type Segment,
} from '@railwatt/contracts';
import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { ReadContext, ServiceContext } from '../../context.js';
import { ApiError } from '../../errors.js';
import { diffSegments, replaceRange, type WorkingSegment } from '../domain/segments.js';
import { rows, type Executor } from '../domain/sql.js';

/**
 * Processing configurations (calls.md §3, §7; issue 9 item 2), stored as versioned data in
 * processing_config / processing_config_segment (migration 0140): one configuration per area,
 * procedure and scope ('' plain, 'tpa' the tpa twin); 'tu-settlement' is kept in the area it configures.
 * A save applies its value over [validFrom, validTo) with the entity store's algorithm
 * (domain/segments.ts replaceRange): overlapped versions are superseded, their remainders come back,
 * history is never overwritten. Nothing stored means the code defaults of the procedure's schema
 * (`defaultConfig`), shown as a version with id 0 over the whole range.
 */

export type ConfigKey = ConfigProcedure | 'tu-settlement';

interface StoredSegment {
  id: number;
  start: string;
  end: string;
  value: Record<string, unknown>;
  comments: string | null;
  lastModified: string;
  lastModifiedBy: string;
  supersededAt: string | null;
}

const EPOCH = '1970-01-01T00:00:00.000Z';

async function configUuid(db: Executor, tenant: string, procedure: ConfigKey, scope: string) {
  const [row] = await rows<{ uuid: string }>(
    db,
    sql`SELECT uuid::text AS uuid FROM processing_config
        WHERE tenant = ${tenant}::uuid AND procedure = ${procedure} AND scope = ${scope}`,
  );
  return row?.uuid ?? null;
}

async function segmentsOf(db: Executor, uuid: string, withHistory: boolean): Promise<StoredSegment[]> {
  return rows<StoredSegment>(
    db,
    sql`SELECT id::int AS id, rw_iso(lower(valid)) AS start, rw_iso(upper(valid)) AS "end", value, comments,
               rw_iso(last_modified) AS "lastModified", last_modified_by AS "lastModifiedBy",
               rw_iso(superseded_at) AS "supersededAt"
          FROM processing_config_segment
         WHERE config_uuid = ${uuid}::uuid ${withHistory ? sql`` : sql`AND superseded_at IS NULL`}
         ORDER BY lower(valid), id`,
  );
}

const toWire = (s: StoredSegment): ProcessingConfigSegment => ({
  id: s.id,
  timeRange: { start: s.start, end: s.end },
  value: s.value,
  comments: s.comments,
  lastModified: s.lastModified,
  lastModifiedBy: s.lastModifiedBy,
  ...(s.supersededAt ? { supersededAt: s.supersededAt } : {}),
});

/** The version containing `at`, else the one whose range lies nearest to it (calls.md §3). */
export function nearestSegment<S extends { start: string; end: string }>(segments: readonly S[], at: string) {
  const t = Date.parse(at);
  let best: S | undefined;
  let bestDistance = Infinity;
  for (const s of segments) {
    const start = Date.parse(s.start);
    const end = Date.parse(s.end);
    const distance = t < start ? start - t : t >= end ? t - end + 1 : 0;
    if (distance < bestDistance) [best, bestDistance] = [s, distance];
  }
  return best;
}

const schemaOf = (procedure: ConfigKey): z.ZodType =>
  procedure === 'tu-settlement' ? tuSettlementConfigSchema : PROCESSING_CONFIG_SCHEMAS[procedure];

const defaultsOf = (procedure: ConfigKey): Record<string, unknown> =>
  procedure === 'tu-settlement' ? tuSettlementConfigSchema.parse({}) : defaultConfig(procedure);

function defaultSegment(procedure: ConfigKey, tpa: boolean): ProcessingConfigSegment {
  const value = defaultsOf(procedure);
  if (procedure === 'settlement') value['tpa'] = tpa;
  return {
    id: 0,
    timeRange: {
      start: new Date(DEFAULT_TIME_RANGE.start).toISOString(),
      end: new Date(DEFAULT_TIME_RANGE.end).toISOString(),
    },
    value,
    comments: null,
    lastModified: EPOCH,
    lastModifiedBy: 'system',
  };
}

/** A stored value read with today's schema: fields added since it was saved get their defaults. */
function withDefaults(procedure: ConfigKey, value: Record<string, unknown>): Record<string, unknown> {
  const parsed = schemaOf(procedure).safeParse(value);
  return parsed.success ? (parsed.data as Record<string, unknown>) : value;
}

const scopeOf = (procedure: ConfigProcedure, tpa: boolean) =>
  tpa && TPA_CONFIG_PROCEDURES.includes(procedure) ? 'tpa' : '';

async function listScope(
  ctx: ReadContext,
  procedure: ConfigKey,
  scope: string,
  refTime: string | undefined,
): Promise<{ uuid: string | null; segments: ProcessingConfigSegment[]; current: ProcessingConfigSegment }> {
  const uuid = await configUuid(ctx.db, ctx.tenant.uuid, procedure, scope);
  const stored = uuid ? await segmentsOf(ctx.db, uuid, false) : [];
  const segments = stored.map((s) => ({ ...toWire(s), value: withDefaults(procedure, s.value) }));
  const nearest = nearestSegment(stored, refTime ?? new Date().toISOString());
  const current = nearest ? segments.find((s) => s.id === nearest.id)! : defaultSegment(procedure, scope === 'tpa');
  return { uuid, segments, current };
}

/** GET /domain/processing-config/{procedure}: the current versions and the one in use at refTime (now). */
export async function listConfig(
  ctx: ReadContext,
  procedure: ConfigProcedure,
  options: { tpa?: boolean; refTime?: string } = {},
): Promise<ProcessingConfigList> {
  const scope = scopeOf(procedure, options.tpa ?? false);
  return { procedure, tpa: scope === 'tpa', ...(await listScope(ctx, procedure, scope, options.refTime)) };
}

/**
 * The configuration a procedure runs with at `at` (default now): the value of the version nearest to
 * it, or the procedure's code defaults when none is stored. Jobs call this.
 */
export async function currentConfig<P extends ConfigProcedure>(
  ctx: ReadContext,
  procedure: P,
  at?: string,
  options: { tpa?: boolean } = {},
): Promise<z.output<(typeof PROCESSING_CONFIG_SCHEMAS)[P]>> {
  const list = await listConfig(ctx, procedure, { tpa: options.tpa ?? false, ...(at ? { refTime: at } : {}) });
  return list.current.value as z.output<(typeof PROCESSING_CONFIG_SCHEMAS)[P]>;
}

function validate(procedure: ConfigKey, value: unknown): Record<string, unknown> {
  const parsed = schemaOf(procedure).safeParse(value);
  if (parsed.success) return parsed.data as Record<string, unknown>;
  const errors: FieldError[] = parsed.error.issues.map((issue) => ({
    code: 'invalid_input',
    field: ['value', ...issue.path.map(String)].join('.'),
    message: issue.message,
  }));
  throw ApiError.badRequestMany(errors);
}

interface SaveInput {
  validFrom: string;
  validTo?: string;
  comments?: string | null | undefined;
  value: unknown;
}

/** Applies a value over [validFrom, validTo) of one configuration; overlapped versions become history. */
async function saveScope(ctx: ServiceContext, procedure: ConfigKey, scope: string, input: SaveInput) {
  const value = validate(procedure, input.value);
  const range = {
    start: new Date(input.validFrom).toISOString(),
    end: new Date(input.validTo ?? DEFAULT_TIME_RANGE.end).toISOString(),
  };
  if (Date.parse(range.start) >= Date.parse(range.end))
    throw ApiError.badRequestMany([
      { code: 'invalid_input', field: 'validTo', message: 'The end must be after the start' },
    ]);
  await ctx.db.transaction(async (tx) => {
    const tenant = ctx.tenant.uuid;
    await tx.execute(
      sql`INSERT INTO processing_config (uuid, tenant, procedure, scope)
          VALUES (${randomUUID()}::uuid, ${tenant}::uuid, ${procedure}, ${scope}) ON CONFLICT DO NOTHING`,
    );
    // One change at a time per configuration: the row lock orders concurrent saves.
    const [config] = await rows<{ uuid: string }>(
      tx,
      sql`SELECT uuid::text AS uuid FROM processing_config
          WHERE tenant = ${tenant}::uuid AND procedure = ${procedure} AND scope = ${scope} FOR UPDATE`,
    );
    const uuid = config!.uuid;
    const current: WorkingSegment[] = (await segmentsOf(tx, uuid, false)).map((s) => ({
      id: s.id,
      start: s.start,
      end: s.end,
      name: procedure,
      active: true,
      state: 'ACTIVE',
      comments: s.comments,
      attributes: s.value,
      lastModified: s.lastModified,
      lastModifiedBy: s.lastModifiedBy,
    }));
    const next = replaceRange(current, range, {
      name: procedure,
      active: true,
      state: 'ACTIVE',
      comments: input.comments ?? null,
      attributes: value,
    });
    const { supersede, insert } = diffSegments(current, next);
    if (supersede.length > 0)
      await tx.execute(
        sql`UPDATE processing_config_segment SET superseded_at = now()
            WHERE id = ANY(${sql.param(supersede)}::bigint[]) AND superseded_at IS NULL`,
      );
    for (const s of insert)
      await tx.execute(
        sql`INSERT INTO processing_config_segment
              (config_uuid, tenant, valid, value, comments, last_modified, last_modified_by)
            VALUES (${uuid}::uuid, ${tenant}::uuid, tstzrange(${s.start}::timestamptz, ${s.end}::timestamptz, '[)'),
                    ${JSON.stringify(s.attributes)}::jsonb, ${s.comments},
                    coalesce(${s.lastModified}::timestamptz, now()), ${s.lastModifiedBy ?? ctx.actor.username})`,
      );
  });
}

/** POST /domain/processing-config/{procedure}: a version from a date (validated by the procedure's schema). */
export async function saveConfig(
  ctx: ServiceContext,
  procedure: ConfigProcedure,
  input: SaveInput & { tpa?: boolean },
): Promise<ProcessingConfigList> {
  if (READ_ONLY_CONFIG_PROCEDURES.includes(procedure))
    throw ApiError.badRequest('invalid_input', 'This configuration is read-only');
  const tpa = input.tpa ?? false;
  const value =
    procedure === 'settlement'
      ? { ...(input.value as Record<string, unknown>), tpa: scopeOf(procedure, tpa) === 'tpa' }
      : input.value;
  await saveScope(ctx, procedure, scopeOf(procedure, tpa), { ...input, value });
  return listConfig(ctx, procedure, { tpa });
}

interface TuArea {
  uuid: string;
  name: string;
}

/** The areas of the transmission-unit model (contracts TRANSMISSION_UNIT_COUNTRIES). */
export const tuAreas = (ctx: Pick<ReadContext, 'db'>) =>
  rows<TuArea>(
    ctx.db,
    sql`SELECT uuid::text AS uuid, name FROM settlement_area
        WHERE kind = ANY(${sql.param([...TRANSMISSION_UNIT_COUNTRIES])}::text[]) ORDER BY name`,
  );

/**
 * One transmission-unit area's settlement configuration, read in that area (its own executor and
 * row-level security): the tu-settlement calls may name any of the model's areas, and the area's
 * jobs read it with `currentTuSettlementConfig`.
 */
export async function tuSettlementOf(ctx: ReadContext, area: TuArea, refTime?: string) {
  const list = await listScope(ctx, 'tu-settlement', '', refTime);
  return { settlementAreaId: area.uuid, settlementAreaName: area.name, ...list };
}

/** POST /domain/processing-config/tu-settlement/{settlementAreaId}: saved in that area (`ctx` bound to it). */
export async function saveTuSettlement(ctx: ServiceContext, input: SaveInput): Promise<void> {
  await saveScope(ctx, 'tu-settlement', '', input);
}

/** The transmission-unit settlement configuration of the context's area at `at` (default now). */
export async function currentTuSettlementConfig(ctx: ReadContext, at?: string) {
  const list = await listScope(ctx, 'tu-settlement', '', at);
  return list.current.value as z.output<typeof tuSettlementConfigSchema>;
}

/** GET /domain/settlementconfiguration/versions/{uuid}: every version, superseded ones marked. */
export async function configVersions(ctx: ReadContext, uuid: string): Promise<Segment[]> {
  const [config] = await rows<{ procedure: string }>(
    ctx.db,
    sql`SELECT procedure FROM processing_config WHERE uuid = ${uuid}::uuid AND tenant = ${ctx.tenant.uuid}::uuid`,
  );
  if (!config) throw ApiError.notFound();
  return (await segmentsOf(ctx.db, uuid, true)).map((s) => ({
    id: s.id,
    name: config.procedure,
    timeRange: { start: s.start, end: s.end },
    active: true,
    state: 'ACTIVE',
    comments: s.comments,
    lastModified: s.lastModified,
    lastModifiedBy: s.lastModifiedBy,
    attributes: s.value,
    supersededAt: s.supersededAt,
  }));
}
