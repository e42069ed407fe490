import { procedureResultSchema, uicCheckDigit, type ProcedureName } from '@railwatt/contracts';
import { expect } from 'vitest';
import { trainRunsXml } from '../formats/trainrun/trainrun-generator.js';
import { multipartBody } from '../modules/excel/fixtures.js';
import type { TestApp } from './app.js';
import { insertEntity } from './entities.js';
import { waitForRun } from './jobs.js';

/**
 * docs/settlement.md's worked month, set up on a test app (seeded with areas, users, fleet,
 * infrastructure and administration, jobs started): the two railway undertakings' contracts, the
 * train runs, CEBD, supply and spot-price files uploaded through the real calls. What
 * settlement/worked-example.test.ts and reports/worked-month-reports.test.ts both start from.
 *
 * Norway (Europe/Oslo, UTC+2 on 1 October 2026). Times below are UTC.
 */
export const RESPONSIBLE = 'settlement-area-responsible';
export const PROVIDER = 'train-run-data-provider';
export const ADMIN = 'erex-administrator';
/** October 2026 in Oslo. */
export const MONTH = { start: '2026-09-30T22:00:00Z', end: '2026-10-31T23:00:00Z' };
/** The non-metered train's locomotive: hired, not in the fleet register (no meter). */
export const HIRED_EVN = `91760099990${uicCheckDigit('91760099990')}`;

export interface WorkedMonth {
  /** Uuids by key: VY, CARGONET, NO1, NO5, VIKEN, HORDALAND, GRID_FEE, ENERGY_FEE, TAX, VAT. */
  ids: Record<string, string>;
  norway(): string;
  /** Runs a procedure for the month as the area responsible, then waits until nothing is under way. */
  runForMonth(procedure: ProcedureName, timeRange?: { start: string; end: string }): Promise<number>;
  /** Waits until every result of the area has finished (the chain's follow-ups are jobs of their own). */
  settled(): Promise<void>;
  get<T>(url: string, username?: string): Promise<T>;
  one<T>(sqlText: string, params?: unknown[]): Promise<T>;
  /** Uploads the month's files (call once, after the app is up). */
  setUp(): Promise<void>;
}

export function workedMonth(t: () => TestApp): WorkedMonth {
  const norway = () => t().areaUuid('norway');
  const one = async <T>(sqlText: string, params: unknown[] = []): Promise<T> => {
    const [row] = await t().allAreas.query<T>(sqlText, [norway(), ...params]);
    if (!row) throw new Error(`No row for ${sqlText}`);
    return row;
  };
  const ids: Record<string, string> = {};

  const upload = async (username: string, url: string, fileName: string, text: string) => {
    const body = multipartBody([{ fileName, bytes: Buffer.from(text) }]);
    const res = await t().callAs(username, { method: 'POST', url, headers: body.headers, payload: body.payload });
    expect(res.statusCode, res.body).toBe(200);
    const run = await waitForRun(t().database, res.json<{ jobIds: string[] }>().jobIds[0]!, { timeoutMs: 60_000 });
    expect(run.status, run.message ?? '').toBe('success');
  };
  /** Runs a procedure for the month as the area responsible, then waits until nothing is under way. */
  const runForMonth = async (procedure: ProcedureName, timeRange: { start: string; end: string } = MONTH) => {
    const res = await t().callAs(RESPONSIBLE, {
      method: 'POST',
      url: `/api/processing/${procedure}/run?zoneId=Europe/Oslo`,
      payload: { timeRange },
    });
    expect(res.statusCode, res.body).toBe(200);
    const result = procedureResultSchema.parse(res.json());
    await settled();
    return result.id;
  };
  /** Waits until every result of the area has finished (the chain's follow-ups are jobs of their own). */
  const settled = async () => {
    const deadline = Date.now() + 180_000;
    for (;;) {
      const open = await t().allAreas.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM procedure_result WHERE tenant = $1 AND status IN ('initial', 'running')`,
        [norway()],
      );
      // A follow-up is queued as a job before its result exists: wait for the jobs too.
      const jobs = await t().allAreas.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM job_run WHERE tenant = $1 AND status NOT IN ('success', 'dead', 'failure')`,
        [norway()],
      );
      if (open[0]!.n === 0 && jobs[0]!.n === 0) return;
      if (Date.now() > deadline) throw new Error('The processing did not finish');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const get = async <T>(url: string, username = RESPONSIBLE): Promise<T> => {
    const res = await t().callAs(username, { method: 'GET', url });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<T>();
  };

  const setUp = async () => {
    // The metered unit: the demo fleet's first consumption point, and its unit's EVN.
    const point = await one<{ cpid: string; evn: string }>(
      `SELECT cp.attributes->>'cpid' AS cpid, u.evn FROM entity_latest cp
         JOIN entity_latest u ON u.entity_uuid = rw_uuid(cp.unit_ref)
        WHERE cp.tenant = $1 AND cp.type = 'consumptionpoint' AND cp.active AND u.active ORDER BY cp.name LIMIT 1`,
    );
    const named = async (type: string, name: string) =>
      (
        await one<{ uuid: string }>(
          `SELECT entity_uuid::text AS uuid FROM entity_latest WHERE tenant = $1 AND type = $2 AND name = $3`,
          [type, name],
        )
      ).uuid;
    for (const [key, type, name] of [
      ['VY', 'organisation', 'Vy Tog AS'],
      ['CARGONET', 'organisation', 'CargoNet AS'],
      ['NO1', 'pricearea', 'NO1'],
      ['NO5', 'pricearea', 'NO5'],
      ['VIKEN', 'gridarea', 'Elvia Viken'],
      ['HORDALAND', 'gridarea', 'BKK Nett Hordaland'],
      ['GRID_FEE', 'gridfeetype', 'Grid energy fee'],
      ['ENERGY_FEE', 'energyfeetype', 'Balancing cost'],
      ['TAX', 'taxcategory', 'Elavgift, redusert sats (bane)'],
      ['VAT', 'vatcategory', 'Merverdiavgift 25 %'],
    ] as const)
      ids[key] = await named(type, name);
    // The two railway undertakings' contracts are the document's own, not the demo's (which charge
    // every fee type of the area, one contract per price area): the demo contracts of the two are
    // put aside (superseded) and each gets one contract without a price area, valid in all of them,
    // with one grid fee, one energy fee, the rail tax and VAT.
    await t().allAreas.query(
      `UPDATE entity_segment SET superseded_at = now()
        WHERE tenant = $1 AND type = 'contract' AND superseded_at IS NULL AND attributes->>'organisationRef' IN ($2, $3)`,
      [norway(), ids['VY'], ids['CARGONET']],
    );
    for (const [key, name] of [
      ['VY', 'Worked example contract Vy'],
      ['CARGONET', 'Worked example contract CargoNet'],
    ] as const)
      await insertEntity(t().allAreas, norway(), 'contract', name, {
        organisationRef: ids[key],
        gridFeeTypeRefs: [ids['GRID_FEE']],
        energyFeeTypeRefs: [ids['ENERGY_FEE']],
        taxCategoryRef: ids['TAX'],
        vatCategoryRef: ids['VAT'],
      });
    await t().callAs(ADMIN, {
      method: 'POST',
      url: '/api/exchange/cebdinput/save',
      payload: { maxDaysSinceObservation: 3650 },
    });

    // 1. Train runs: Vy's 101 with the metered unit, CargoNet's 202 with a hired locomotive.
    const vyOrgId = (
      await one<{ id: string }>(`SELECT attributes->>'orgId' AS id FROM entity_latest WHERE entity_uuid = $2`, [
        ids['VY'],
      ])
    ).id;
    const cargoOrgId = (
      await one<{ id: string }>(`SELECT attributes->>'orgId' AS id FROM entity_latest WHERE entity_uuid = $2`, [
        ids['CARGONET'],
      ])
    ).id;
    await upload(
      PROVIDER,
      '/api/timeseries/import/trainrun',
      'train-runs-2026-10-01.xml',
      trainRunsXml([
        {
          action: 'input',
          trainNumber: '101',
          operatingDay: '2026-10-01',
          railwayUndertaking: vyOrgId,
          trafficCategory: 'Passenger, regional',
          route: ['Oslo S', 'Lillestrøm'],
          departure: '2026-10-01T08:00:00Z',
          arrival: '2026-10-01T10:00:00Z',
          composition: [{ evn: point.evn, grossWeightTonnes: 200, position: 1 }],
          grossTonneKm: 4_000,
        },
        {
          action: 'input',
          trainNumber: '202',
          operatingDay: '2026-10-01',
          railwayUndertaking: cargoOrgId,
          trafficCategory: 'Freight, bulk',
          route: ['Oslo S', 'Bergen'],
          departure: '2026-10-01T08:30:00Z',
          arrival: '2026-10-01T09:30:00Z',
          composition: [
            { evn: HIRED_EVN, grossWeightTonnes: 120, position: 1 },
            { evn: '318000000014', grossWeightTonnes: 80, position: 2 },
          ],
          grossTonneKm: 16_000,
        },
      ]),
    );
    // 2. CEBD: 24 records of the metered unit at Oslo S, 08:05 .. 10:00, 11 kWh consumed and 1
    // regenerated each.
    const records = Array.from({ length: 24 }, (_, i) => {
      const end = new Date(Date.parse('2026-10-01T08:00:00Z') + (i + 1) * 300_000).toISOString().replace('.000', '');
      return `    <Record periodEnd="${end}" activeConsumed="11" activeRegenerated="1" reactiveConsumed="2" reactiveRegenerated="0" lat="59.911" lon="10.753" tractionSystem="02" quality="127"/>`;
    });
    await upload(
      RESPONSIBLE,
      '/api/cebd/import',
      'cebd-2026-10-01.xml',
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<CEBDFile xmlns="urn:railwatt:cebd:1" version="1" sender="DCS-DEMO" created="2026-10-01T10:05:00Z">',
        `  <CEBDBlock cpid="${point.cpid}">`,
        ...records,
        '  </CEBDBlock>',
        '</CEBDFile>',
      ].join('\n'),
    );
    // 3. Supply at the two substations, Oslo wall clock (10:00 and 11:00 are 08:00 and 09:00 UTC).
    await upload(
      RESPONSIBLE,
      '/api/excel/timeseries/csv-import',
      'supply-2026-10-01.csv',
      [
        'type;supply_energy',
        'startInclusive;endExclusive;SMP-OSLO-S;SMP-BERGEN',
        '01.10.2026 10:00;01.10.2026 11:00;198;66',
        '01.10.2026 11:00;01.10.2026 12:00;198;66',
      ].join('\n'),
    );
    // 4. Spot prices (EUR/MWh) and the exchange rate, Nord Pool's hours on the Oslo wall clock.
    await upload(
      ADMIN,
      '/api/automaticfileimport/importnordpool',
      'nordpool-2026-10-01.csv',
      [
        'Delivery day;Hour;NO1;NO5;Currency;Exchange rate',
        '01.10.2026;10-11;40,00;20,00;NOK;11,5',
        '01.10.2026;11-12;60,00;30,00;NOK;11,5',
      ].join('\n'),
    );
  };
  return { ids, norway, runForMonth, settled, get, one, setUp };
}
