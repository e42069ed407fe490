import { sql } from 'drizzle-orm';
import type { CebdInputSettings } from '@railwatt/contracts';
import type { ReadContext, ServiceContext } from '../../context.js';
import { rows } from '../domain/sql.js';

/**
 * Settings of an area's intake (migration 0090 area_setting). The maximum days since observation
 * (/exchange/cebdinput/save, /getmaxdays): CEBD whose period ended longer ago than this is refused
 * as received too late. Until an administrator sets it, 60 days: two settlement months, so a
 * month's data can still arrive while the month after it is settled.
 */
export const DEFAULT_MAX_DAYS_SINCE_OBSERVATION = 60;
const MAX_DAYS_KEY = 'cebdinput.maxDaysSinceObservation';

export async function cebdInputSettings(ctx: ReadContext): Promise<CebdInputSettings> {
  const [row] = await rows<{ value: unknown }>(
    ctx.db,
    sql`SELECT value FROM area_setting WHERE tenant = ${ctx.tenant.uuid}::uuid AND key = ${MAX_DAYS_KEY}`,
  );
  const stored = typeof row?.value === 'number' ? row.value : Number(row?.value);
  return {
    maxDaysSinceObservation: Number.isInteger(stored) && stored > 0 ? stored : DEFAULT_MAX_DAYS_SINCE_OBSERVATION,
  };
}

export async function saveCebdInputSettings(
  ctx: ServiceContext,
  settings: CebdInputSettings,
): Promise<CebdInputSettings> {
  await ctx.db.execute(sql`
    INSERT INTO area_setting (tenant, key, value, updated_by)
    VALUES (${ctx.tenant.uuid}::uuid, ${MAX_DAYS_KEY}, ${JSON.stringify(settings.maxDaysSinceObservation)}::jsonb,
            ${ctx.actor.username})
    ON CONFLICT ON CONSTRAINT area_setting_key DO UPDATE
      SET value = excluded.value, updated_at = now(), updated_by = excluded.updated_by`);
  return cebdInputSettings(ctx);
}
