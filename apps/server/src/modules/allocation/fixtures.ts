import type { Database } from '../../db/client.js';
import { insertEntity } from '../../test/entities.js';

/**
 * A small known day for shunting-and-stabling and energy-outside-train-run (tests only), relative to
 * `day` (an ISO instant, the chunk's start; times below are minutes after it, `-120` the day before):
 *
 * Organisations RU1, RU2 (railway undertakings) and K (vehicle keeper). Traction unit U1 (owner K)
 * carries CP1; U2 (no owner) carries CP2. Runs (current unless said):
 *   R1  RU1, U1, 06:00 -> 08:00        R2  RU2, U1, 12:00 -> 13:00
 *   R3  RU2, U2, -04:00 -> -02:00 (the day before, 20:00 -> 22:00)
 *   Rx  RU1, U1, 16:00 -> 17:00, superseded by a correction: never counts.
 * `database` is seen by the area (db/tenant.ts tenantDatabase), so runs can be added after the
 * test switched to the app's role.
 * Records (period end, 10 kWh consumed and 1 kWh regenerated each):
 *   CP1 05:30 07:00 08:45 09:00 10:20 11:30 13:30 16:30 20:00; CP2 00:30 23:00.
 *   07:00 is combine's (an allocated_energy_hourly 'train-run' sum of R1 holding it is inserted);
 *   09:00 has code 59.
 */
export interface AllocationDay {
  ids: Record<'RU1' | 'RU2' | 'K' | 'U1' | 'U2' | 'CP1' | 'CP2' | 'TC', string>;
  runs: Record<'R1' | 'R2' | 'R3' | 'Rx', number>;
  /** Adds a current run of `unit` for `ru` from `departure` to `arrival` (minutes after the day's start). */
  addRun(ru: string, unit: string, departure: number, arrival: number): Promise<number>;
  /** The instant `minutes` after the day's start. */
  at(minutes: number): string;
}

const hm = (h: number, m = 0) => h * 60 + m;

export async function seedAllocationDay(database: Database, tenant: string, day: string): Promise<AllocationDay> {
  const at = (minutes: number) => new Date(Date.parse(day) + minutes * 60_000).toISOString();
  const entity = (type: string, name: string, attributes: Record<string, unknown>) =>
    insertEntity(database, tenant, type, name, attributes);
  const RU1 = await entity('organisation', 'RU1', { orgId: 'RU1' });
  const RU2 = await entity('organisation', 'RU2', { orgId: 'RU2' });
  const K = await entity('organisation', 'K', { orgId: 'K' });
  const TC = await entity('trafficcategory', 'TC', {});
  const U1 = await entity('tractionunit', 'U1', { evn: '900000000001', owner: K });
  const U2 = await entity('tractionunit', 'U2', { evn: '900000000002' });
  const CP1 = await entity('consumptionpoint', 'CP1', { cpid: 'CP1', tractionUnitRef: U1 });
  const CP2 = await entity('consumptionpoint', 'CP2', { cpid: 'CP2', tractionUnitRef: U2 });
  const [log] = await database.query<{ id: number }>(
    `INSERT INTO data_log (tenant, message_type, message_status) VALUES ($1, 'TRAIN_RUN', 'OK') RETURNING id`,
    [tenant],
  );
  let trains = 0;
  const addRun = async (ru: string, unit: string, departure: number, arrival: number, superseded = false) => {
    trains++;
    const [run] = await database.query<{ id: number }>(
      `INSERT INTO train_run (tenant, train_number, operating_day, ru_uuid, traffic_category_uuid, departure, arrival,
                                gross_tonne_km, data_log_id, superseded_at, superseded_by_data_log_id)
         VALUES ($1, $2, ($3::timestamptz AT TIME ZONE 'UTC')::date, $4, $5, $3, $6, 100, $7,
                 CASE WHEN $8 THEN now() END, CASE WHEN $8 THEN $7::bigint END)
         RETURNING id`,
      [tenant, `T${trains}`, at(departure), ru, TC, at(arrival), log!.id, superseded],
    );
    const evn = unit === U1 ? '900000000001' : '900000000002';
    await database.query(
      `INSERT INTO train_run_vehicle (train_run_id, tenant, position, evn, traction_unit_uuid, gross_weight)
       VALUES ($1, $2, 1, $3, $4, 80), ($1, $2, 2, '310000000001', NULL, 40)`,
      [run!.id, tenant, evn, unit],
    );
    return Number(run!.id);
  };
  const runs = {
    R1: await addRun(RU1, U1, hm(6), hm(8)),
    R2: await addRun(RU2, U1, hm(12), hm(13)),
    R3: await addRun(RU2, U2, -hm(4), -hm(2)),
    Rx: await addRun(RU1, U1, hm(16), hm(17), true),
  };
  // The record table's fixture (processing/allocated-energy.ts checkedRecords).
  const record = async (cp: string, unit: string, minutes: number, codes: number[] = []) =>
    database.query(
      `INSERT INTO cebd_record (tenant, consumption_point_uuid, period_end, traction_unit_uuid, active_consumed,
                                active_regenerated, reactive_consumed, reactive_regenerated, quality, codes, checked_at)
       VALUES ($1, $2, $3, $4, 10, 1, 0, 0, 127, $5::smallint[], now())`,
      [tenant, cp, at(minutes), unit, `{${codes.join(',')}}`],
    );
  for (const m of [hm(5, 30), hm(7), hm(8, 45), hm(10, 20), hm(11, 30), hm(13, 30), hm(16, 30), hm(20)]) {
    await record(CP1, U1, m);
  }
  await record(CP1, U1, hm(9), [59]);
  await record(CP2, U2, hm(0, 30));
  await record(CP2, U2, hm(23));
  await insertAllocatedRecord(database, {
    tenant,
    consumptionPoint: CP1,
    periodEnd: at(hm(7)),
    tractionUnit: U1,
    consumed: 10,
    regenerated: 1,
    category: 'train-run',
    trainRun: runs.R1,
    organisation: RU1,
  });
  return {
    ids: { RU1, RU2, K, U1, U2, CP1, CP2, TC },
    runs,
    addRun: (ru, unit, departure, arrival) => addRun(ru, unit, departure, arrival),
    at,
  };
}

/** What one allocated 5-minute record of a test says (`insertAllocatedRecord`). */
export interface AllocatedRecord {
  tenant: string;
  consumptionPoint: string;
  periodEnd: string;
  tractionUnit: string;
  gridArea?: string | null;
  priceArea?: string | null;
  consumed?: number;
  regenerated?: number;
  category: 'train-run' | 'shunting-and-stabling' | 'energy-outside-train-run';
  trainRun?: number | null;
  organisation?: string | null;
  payer?: 'ru' | 'vehicle-keeper';
  /** Default now(). */
  allocatedAt?: string;
}

/**
 * Tests only: the allocation of one record as the steps write it (migration 0380): a sum of one
 * record in its hour, its island the record's period end alone.
 */
export async function insertAllocatedRecord(database: Pick<Database, 'query'>, r: AllocatedRecord): Promise<void> {
  await database.query(
    `INSERT INTO allocated_energy_hourly
            (tenant, hour_start, category, organisation_uuid, payer, consumption_point_uuid, traction_unit_uuid,
             train_run_id, grid_area_uuid, price_area_uuid, active_consumed, active_regenerated, records,
             first_period_end, last_period_end, allocated_at)
     VALUES ($1, date_trunc('hour', $2::timestamptz - interval '1 microsecond', 'UTC'), $3, $4, $5, $6, $7, $8, $9,
             $10, $11, $12, 1, $2, $2, coalesce($13::timestamptz, now()))`,
    [
      r.tenant,
      r.periodEnd,
      r.category,
      r.organisation ?? null,
      r.payer ?? 'ru',
      r.consumptionPoint,
      r.tractionUnit,
      r.trainRun ?? null,
      r.gridArea ?? null,
      r.priceArea ?? null,
      r.consumed ?? 0,
      r.regenerated ?? 0,
      r.allocatedAt ?? null,
    ],
  );
}
