import { MESSAGE_TYPES, type MeteredEnergyAggregation } from '@railwatt/contracts';
import { sql } from 'drizzle-orm';
import type { ServiceContext } from '../../context.js';
import { recordFile, recordFileTimeSeries } from '../datalog/datalog-service.js';
import { sumsOfChunk } from '../processing/allocated-energy.js';
import { rows } from '../domain/sql.js';

/**
 * metered-energy-aggregation (DOMAIN.md "Processing" step 10, issue 10 item 4) for one chunk (an
 * area day): the day's metered energy (allocated_energy_hourly, every category) summed per hour,
 * consumption point and paying organisation in one statement, written as one CSV file per
 * organisation (its consumer export) and, in the Netherlands, one more file with every organisation
 * for the TPA. Each file is a data-log entry METERED_ENERGY_AGGREGATION with its bytes (downloaded
 * as EXP_<name>, calls.md §4), the organisation as destination and a time-series line per
 * consumption point, written in the chunk's transaction: a re-run of the day writes new entries (a
 * re-export), a crashed chunk none.
 *
 * The aggregation (FIRST or SECOND, the configuration's defaultAggregation unless the run names one)
 * is in the file name and the entry's text: the first goes out a few days after the day, the second
 * some days later with what arrived since (calls.md §7: the procedure option defaults to the second).
 *
 * The file (ours; no public format exists):
 *   cpid;hourStart;hourEnd;activeConsumedKwh;activeRegeneratedKwh;netKwh
 *   NO_NSB_917600730019_EMS1;2026-10-01T08:00:00Z;2026-10-01T09:00:00Z;132;12;120
 * one line per consumption point and hour with energy, hours in UTC, decimals with a point. Its
 * name is MEA_<organisation id>_<day>_<FIRST|SECOND>.csv (MEA_TPA_... for the TPA).
 *
 * Delivery (aggregation-delivery.ts): a run writes its entries PENDING and, once the chunk's
 * transaction has committed, queues the `metered-energy-delivery` job, which uploads them to the
 * interface routes and records the outcome; a call without `deliver` (tests, tools) keeps the files
 * in the data log only, OK.
 */
export type Aggregation = MeteredEnergyAggregation;

export interface AggregationResult {
  files: { dataLogId: number; organisation: string; fileName: string; lines: number }[];
}

const HEADER = 'cpid;hourStart;hourEnd;activeConsumedKwh;activeRegeneratedKwh;netKwh';

/** The organisation's key as it stands in file and folder names: its id, kept to name-safe characters. */
const nameSafe = (key: string) => key.replace(/[^A-Za-z0-9._-]/g, '_');

export const aggregationExportName = (key: string, day: string, aggregation: Aggregation): string =>
  `MEA_${nameSafe(key)}_${day}_${aggregation}.csv`;

/** The organisation key of an export's file name (its folder on the route), or null for another name. */
export function aggregationExportKey(fileName: string): string | null {
  return /^MEA_([A-Za-z0-9._-]+)_\d{4}-\d{2}-\d{2}_(?:FIRST|SECOND)\.csv$/.exec(fileName)?.[1] ?? null;
}

export const AWAITING_DELIVERY = 'awaiting delivery';

export async function aggregateMeteredEnergy(
  ctx: ServiceContext,
  chunk: { start: string; end: string; day: string },
  options: { aggregation: Aggregation; tpa: boolean; deliver?: boolean },
): Promise<AggregationResult> {
  const tenant = ctx.tenant.uuid;
  const S = sql`${new Date(chunk.start).toISOString()}::timestamptz`;
  const E = sql`${new Date(chunk.end).toISOString()}::timestamptz`;
  const found = await rows<{
    org: string;
    org_name: string | null;
    org_id: string | null;
    cpid: string;
    hour: string;
    consumed: string;
    regenerated: string;
  }>(
    ctx.db,
    sql`SELECT a.organisation_uuid AS org, o.name AS org_name, o.attributes ->> 'orgId' AS org_id,
               coalesce(cp.attributes ->> 'cpid', cp.name, a.consumption_point_uuid::text) AS cpid,
               to_char(a.hour_start AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS hour,
               sum(a.active_consumed)::text AS consumed, sum(a.active_regenerated)::text AS regenerated
          FROM allocated_energy_hourly a
          LEFT JOIN entity_latest o ON o.entity_uuid = a.organisation_uuid
          LEFT JOIN entity_latest cp ON cp.entity_uuid = a.consumption_point_uuid
         WHERE ${sumsOfChunk(tenant, S, E)}
           AND a.organisation_uuid IS NOT NULL
         GROUP BY 1, 2, 3, 4, 5
         ORDER BY 2, 4, 5`,
  );
  const byOrg = new Map<string, typeof found>();
  for (const row of found) byOrg.set(row.org, [...(byOrg.get(row.org) ?? []), row]);
  const line = (r: (typeof found)[number]) => {
    const end = new Date(Date.parse(r.hour) + 3_600_000).toISOString().replace('.000Z', 'Z');
    const net = Number(r.consumed) - Number(r.regenerated);
    return `${r.cpid};${r.hour};${end};${Number(r.consumed)};${Number(r.regenerated)};${Number(net.toFixed(6))}`;
  };
  const result: AggregationResult = { files: [] };
  const write = async (destination: string, key: string, lines: typeof found) => {
    // The file is its payers' (the TPA's: every payer in it): the data log shows it to those who see them all.
    const organisations = [...new Set(lines.map((r) => r.org))];
    const fileName = aggregationExportName(key, chunk.day, options.aggregation);
    const bytes = Buffer.from(`${[HEADER, ...lines.map(line)].join('\n')}\n`, 'utf8');
    const id = await recordFile(ctx.db, {
      tenant,
      messageType: MESSAGE_TYPES.meteredEnergyAggregation,
      status: options.deliver ? 'PENDING' : 'OK',
      text: `${options.aggregation === 'FIRST' ? 'First' : 'Second'} aggregation of ${chunk.day}: ${lines.length} hourly values${
        options.deliver ? `; ${AWAITING_DELIVERY}` : ''
      }`,
      fileName,
      username: ctx.actor.username,
      destination,
      bytes,
      contentType: 'text/csv',
      organisations,
    });
    const perPoint = new Map<string, number>();
    for (const r of lines) perPoint.set(r.cpid, (perPoint.get(r.cpid) ?? 0) + 1);
    await recordFileTimeSeries(
      ctx.db,
      id,
      [...perPoint].map(([cpid, n]) => ({
        startTime: chunk.start,
        endTime: chunk.end,
        timeSeriesType: 'metered_energy_aggregation',
        entityIdentifier: cpid,
        valuesCount: n,
      })),
    );
    result.files.push({ dataLogId: id, organisation: destination, fileName, lines: lines.length });
  };
  for (const [org, lines] of byOrg) await write(lines[0]!.org_name ?? org, lines[0]!.org_id ?? org, lines);
  // The Netherlands: the transmission-system party (TPA) receives every organisation's values.
  if (options.tpa && found.length > 0) await write('TPA', 'TPA', found);
  return result;
}
