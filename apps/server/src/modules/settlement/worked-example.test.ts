import { procedureResultSchema, uicCheckDigit, type ProcedureName, type SettlementLine } from '@railwatt/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trainRunsXml } from '../../formats/trainrun/trainrun-generator.js';
import { multipartBody } from '../excel/fixtures.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { insertEntity } from '../../test/entities.js';
import { waitForRun } from '../../test/jobs.js';

/**
 * docs/settlement.md, run: the worked example's month from files to an approved settlement, through
 * the real calls (uploads, runs, reads), asserting every number the document shows. If a number
 * changes here, the document is wrong (or the code is): change both together.
 *
 * Norway (Europe/Oslo, UTC+2 on 1 October 2026), with the demo master data (seeded fleet,
 * infrastructure and administration kinds). Times below are UTC.
 */
const RESPONSIBLE = 'settlement-area-responsible';
const PROVIDER = 'train-run-data-provider';
const ADMIN = 'erex-administrator';
/** October 2026 in Oslo. */
const MONTH = { start: '2026-09-30T22:00:00Z', end: '2026-10-31T23:00:00Z' };
/** The non-metered train's locomotive: hired, not in the fleet register (no meter). */
const HIRED_EVN = `91760099990${uicCheckDigit('91760099990')}`;

describe('the worked example of docs/settlement.md', () => {
  let t: TestApp;
  const norway = () => t.areaUuid('norway');
  const one = async <T>(sqlText: string, params: unknown[] = []): Promise<T> => {
    const [row] = await t.allAreas.query<T>(sqlText, [norway(), ...params]);
    if (!row) throw new Error(`No row for ${sqlText}`);
    return row;
  };
  const ids: Record<string, string> = {};

  const upload = async (username: string, url: string, fileName: string, text: string) => {
    const body = multipartBody([{ fileName, bytes: Buffer.from(text) }]);
    const res = await t.callAs(username, { method: 'POST', url, headers: body.headers, payload: body.payload });
    expect(res.statusCode, res.body).toBe(200);
    const run = await waitForRun(t.database, res.json<{ jobIds: string[] }>().jobIds[0]!, { timeoutMs: 60_000 });
    expect(run.status, run.message ?? '').toBe('success');
  };
  /** Money to the cent, as the document shows it. */
  const cents = (x: number) => Number(x.toFixed(2));
  /** Runs a procedure for the month as the area responsible, then waits until nothing is under way. */
  const runForMonth = async (procedure: ProcedureName, timeRange: { start: string; end: string } = MONTH) => {
    const res = await t.callAs(RESPONSIBLE, {
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
      const open = await t.allAreas.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM procedure_result WHERE tenant = $1 AND status IN ('initial', 'running')`,
        [norway()],
      );
      // A follow-up is queued as a job before its result exists: wait for the jobs too.
      const jobs = await t.allAreas.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM job_run WHERE tenant = $1 AND status NOT IN ('success', 'dead', 'failure')`,
        [norway()],
      );
      if (open[0]!.n === 0 && jobs[0]!.n === 0) return;
      if (Date.now() > deadline) throw new Error('The processing did not finish');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const get = async <T>(url: string, username = RESPONSIBLE): Promise<T> => {
    const res = await t.callAs(username, { method: 'GET', url });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<T>();
  };

  beforeAll(async () => {
    t = await createTestApp({
      seeders: ['areas', 'users', 'fleet', 'infrastructure', 'administration'],
      jobs: {},
    });
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
    await t.allAreas.query(
      `UPDATE entity_segment SET superseded_at = now()
        WHERE tenant = $1 AND type = 'contract' AND superseded_at IS NULL AND attributes->>'organisationRef' IN ($2, $3)`,
      [norway(), ids['VY'], ids['CARGONET']],
    );
    for (const [key, name] of [
      ['VY', 'Worked example contract Vy'],
      ['CARGONET', 'Worked example contract CargoNet'],
    ] as const)
      await insertEntity(t.allAreas, norway(), 'contract', name, {
        organisationRef: ids[key],
        gridFeeTypeRefs: [ids['GRID_FEE']],
        energyFeeTypeRefs: [ids['ENERGY_FEE']],
        taxCategoryRef: ids['TAX'],
        vatCategoryRef: ids['VAT'],
      });
    await t.callAs(ADMIN, {
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
  }, 240_000);
  afterAll(async () => t?.close());

  it('runs the chain for the month and settles it as the document says, to the kWh and the cent', async () => {
    // Steps 1-5: train runs checked (then combine and the estimate, by the chain), CEBD checked
    // (then combine, shunting and stabling, energy outside train runs, by the chain).
    await runForMonth('train-preprocessing');
    await runForMonth('cebd-preprocessing');
    const byName = await t.allAreas.query<{ name: string; n: number }>(
      `SELECT procedure_name AS name, count(*)::int AS n FROM procedure_result
        WHERE tenant = $1 AND status = 'success' GROUP BY 1 ORDER BY 1`,
      [norway()],
    );
    expect(Object.fromEntries(byName.map((r) => [r.name, r.n]))).toMatchObject({
      'train-preprocessing': 1,
      // The file's check on arrival and the month's run.
      'cebd-preprocessing': 2,
      'reported-train-consumption': 1,
      'shunting-and-stabling': expect.any(Number),
      'energy-outside-train-run': expect.any(Number),
    });
    // Step 6-7: prices and supply, approved; then the settlement.
    const prices = await runForMonth('price-and-supply');
    const approvePrices = await t.callAs(RESPONSIBLE, {
      method: 'POST',
      url: '/api/eventlog/procedure-result/approve-procedure-results',
      payload: [prices],
    });
    expect(approvePrices.statusCode, approvePrices.body).toBe(200);
    const settlement = await runForMonth('settlement');

    // The base verification (docs/settlement.md, "The month's balance").
    const q = 'startYear=2026&startMonth=10';
    type Row = {
      organisation: { name: string };
      priceArea: { name: string };
      supplyEnergy: number;
      meteredEnergy: number;
      estimatedEnergy: number;
      lossesEnergy: number;
      supplyCost: number;
    };
    const rows = await get<Row[]>(`/api/timeseries/settlement/settlementbaseverification?${q}`);
    expect(
      rows.map((r) => [
        r.priceArea.name,
        r.organisation.name,
        r.meteredEnergy,
        r.estimatedEnergy,
        r.lossesEnergy,
        r.supplyEnergy,
        Number(r.supplyCost.toFixed(2)),
      ]),
    ).toEqual([
      ['NO1', 'CargoNet AS', 0, 120, 12, 132, 75.9],
      ['NO1', 'Vy Tog AS', 240, 0, 24, 264, 151.8],
      ['NO5', 'CargoNet AS', 0, 120, 12, 132, 37.95],
    ]);
    const balances = await get<{ priceArea: { name: string }; supplyEnergy: number; difference: number }[]>(
      `/api/timeseries/settlement/settlementbaseverification/balance?${q}`,
    );
    expect(balances.map((b) => [b.priceArea.name, b.supplyEnergy, b.difference])).toEqual([
      ['NO1', 396, 0],
      ['NO5', 132, 0],
    ]);

    // The settlement's lines with fees, tax and VAT ("The bill").
    const lines = await get<SettlementLine[]>(`/api/timeseries/settlement/lines?procedureResultId=${settlement}`);
    expect(
      lines.map((l) => [
        l.priceArea.name,
        l.organisation.name,
        l.supplyEnergy,
        cents(l.supplyCost),
        cents(l.gridFeeCost),
        cents(l.energyFeeCost),
        cents(l.taxCost),
        cents(l.vatCost),
        cents(l.totalCost),
      ]),
    ).toEqual([
      ['NO1', 'CargoNet AS', 132, 75.9, 5.94, 1.12, 0.72, 20.92, 104.6],
      ['NO1', 'Vy Tog AS', 264, 151.8, 11.88, 2.24, 1.44, 41.84, 209.21],
      ['NO5', 'CargoNet AS', 132, 37.95, 5.94, 1.12, 0.72, 11.43, 57.17],
    ]);

    // Nothing to warn about: every line has its contract, and supply and prices are as priced.
    expect(await get(`/api/timeseries/settlement/warnings?procedureResultId=${settlement}`)).toEqual({
      procedureResultId: settlement,
      missingContracts: [],
      supplyChanged: null,
      repricedAfterSettlement: null,
      allocatedAfterPricing: null,
    });

    // Traceable: Vy's 240 kWh in NO1 are two hours of 120, each twelve records of 10 kWh from the file.
    const hours = await get<{ hourStart: string; gridArea: { uuid: string }; energy: number }[]>(
      `/api/timeseries/settlement/hourly?${q}&organisation=${ids['VY']}&priceArea=${ids['NO1']}&category=metered`,
    );
    expect(hours.map((h) => [h.hourStart, h.energy])).toEqual([
      ['2026-10-01T08:00:00.000Z', 120],
      ['2026-10-01T09:00:00.000Z', 120],
    ]);
    const behind = await get<{ activeConsumed: number; activeRegenerated: number; fileName: string }[]>(
      `/api/timeseries/settlement/records?organisation=${ids['VY']}&gridArea=${hours[0]!.gridArea.uuid}&hourStart=${hours[0]!.hourStart}`,
    );
    expect(behind).toHaveLength(12);
    expect(
      behind.every((r) => r.activeConsumed - r.activeRegenerated === 10 && r.fileName === 'cebd-2026-10-01.xml'),
    ).toBe(true);

    // Approved: the month's bill.
    const approve = await t.callAs(RESPONSIBLE, {
      method: 'POST',
      url: '/api/eventlog/procedure-result/approve-procedure-results',
      payload: [settlement],
    });
    expect(approve.statusCode, approve.body).toBe(200);
  }, 300_000);

  it('invoices the next month on account from the approved settlement, and the next settlement reconciles it', async () => {
    // November 2026 in Oslo. CargoNet's on-account energy is set by hand to 300 kWh (parameter
    // overview); Vy takes 100 % (onAccountSharePercent) of October.
    const NOVEMBER = { start: '2026-10-31T23:00:00Z', end: '2026-11-30T23:00:00Z' };
    const set = await t.callAs(RESPONSIBLE, {
      method: 'POST',
      url: '/api/timeseries/parameterOverview',
      payload: {
        typeName: 'on_account_energy',
        refs: [{ uuid: ids['CARGONET'], type: 'Organisation' }],
        timeRange: NOVEMBER,
        value: 300,
      },
    });
    expect(set.statusCode, set.body).toBe(200);
    await runForMonth('on-account', NOVEMBER);
    const settlement = await runForMonth('settlement', NOVEMBER);
    const lines = await get<SettlementLine[]>(`/api/timeseries/settlement/lines?procedureResultId=${settlement}`);
    // Vy: October's 264 kWh and its whole bill, 209.2068. CargoNet: 300 kWh over its price areas as
    // in October (132 : 132, so 150 each) at October's price per kWh: NO1 104.6034 / 132 x 150 =
    // 118.8675, NO5 57.1659 / 132 x 150 = 64.96125. November has no energy: all of it is due back.
    expect(
      lines.map((l) => [
        l.priceArea.name,
        l.organisation.name,
        Number(l.onAccountEnergy.toFixed(4)),
        cents(l.onAccountCost),
        cents(l.totalCost),
        cents(l.dueCost),
      ]),
    ).toEqual([
      ['NO1', 'CargoNet AS', 150, 118.87, 0, -118.87],
      ['NO1', 'Vy Tog AS', 264, 209.21, 0, -209.21],
      ['NO5', 'CargoNet AS', 150, 64.96, 0, -64.96],
    ]);
  }, 300_000);
});
