import type { ReportDescription } from '@railwatt/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app.js';
import { insertEntity } from '../../test/entities.js';
import { waitForRun } from '../../test/jobs.js';

/**
 * The reports made in one kind of area only (docs/reports.md "tpa-settlement", "tpa-supplier",
 * "portugal-settlementoverview"), ordered through POST /processing/tasks/{reportName} on settlement
 * lines and priced energy of known figures: the TPA settlement's versions apart from the plain
 * settlement's in the Netherlands, and Portugal's months each read from its own version (the
 * approved one before a newer success).
 */
const RESPONSIBLE = 'settlement-area-responsible';

type Line = {
  result: number;
  day: string;
  organisation: string;
  priceArea: string;
  kwh: [number, number, number, number];
  cost: [number, number, number, number];
  charges: [number, number, number, number];
};

describe('TPA and Portugal reports', () => {
  let t: TestApp;
  const ids: Record<string, string> = {};
  const results: Record<string, number> = {};

  const result = async (
    tenant: string,
    key: string,
    procedure: string,
    status: string,
    period: [string, string],
    tpa = false,
  ) => {
    const [row] = await t.allAreas.query<{ id: number }>(
      `INSERT INTO procedure_result (tenant, procedure_name, status, period_start, period_end, username, run_options)
       VALUES ($1, $2, $3, $4, $5, 'test', $6::jsonb) RETURNING id`,
      [tenant, procedure, status, period[0], period[1], JSON.stringify(tpa ? { tpa: true } : {})],
    );
    results[key] = Number(row!.id);
  };
  const line = async (tenant: string, l: Line) =>
    t.allAreas.query(
      `INSERT INTO settlement_line (tenant, procedure_result_id, day, organisation_uuid, price_area_uuid,
         metered_kwh, estimated_kwh, other_kwh, losses_kwh, metered_cost, estimated_cost, other_cost, losses_cost,
         grid_fee_cost, energy_fee_cost, tax_cost, vat_cost)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)`,
      [tenant, l.result, l.day, l.organisation, l.priceArea, ...l.kwh, ...l.cost, ...l.charges],
    );
  const order = async (
    kind: 'netherlands' | 'portugal',
    report: string,
    body: Record<string, unknown>,
    query: string,
  ) => {
    const res = await t.callAs(
      RESPONSIBLE,
      { method: 'POST', url: `/api/processing/tasks/${report}?${query}`, payload: body },
      kind,
    );
    expect(res.statusCode, res.body).toBe(200);
    const { jobId, dataLogId } = res.json<{ jobId: string; dataLogId: number }>();
    const run = await waitForRun(t.database, jobId, { until: ['success', 'failure', 'dead'], timeoutMs: 60_000 });
    expect(run.status, run.message ?? '').toBe('success');
    const file = await t.callAs(
      RESPONSIBLE,
      { method: 'GET', url: `/api/eventlog/datalog/reports/${dataLogId}/file` },
      kind,
    );
    expect(file.statusCode, file.body).toBe(200);
    return [...file.body.matchAll(/<Row>(.*?)<\/Row>/g)].map((m) =>
      Object.fromEntries([...m[1]!.matchAll(/<(\w+)>([^<]*)<\/\1>/g)].map((c) => [c[1], c[2]])),
    );
  };

  beforeAll(async () => {
    t = await createTestApp({ seeders: ['areas', 'users'], jobs: {} });
    const nl = t.areaUuid('netherlands');
    const pt = t.areaUuid('portugal');
    ids['NL'] = await insertEntity(t.allAreas, nl, 'pricearea', 'NL');
    ids['GRID'] = await insertEntity(t.allAreas, nl, 'gridarea', 'Stedin', { priceAreaRef: ids['NL'] });
    ids['NS'] = await insertEntity(t.allAreas, nl, 'organisation', 'NS Reizigers', { orgId: 'NSR' });
    ids['DBC'] = await insertEntity(t.allAreas, nl, 'organisation', 'DB Cargo Nederland', { orgId: 'DBC' });
    ids['PT'] = await insertEntity(t.allAreas, pt, 'pricearea', 'PT');
    ids['CP'] = await insertEntity(t.allAreas, pt, 'organisation', 'CP Comboios de Portugal', { orgId: '500498601' });

    // The Netherlands, October 2026 (Europe/Amsterdam): a plain settlement and a TPA settlement.
    const october: [string, string] = ['2026-09-30T22:00:00Z', '2026-10-31T23:00:00Z'];
    await result(nl, 'plain', 'settlement', 'success', october);
    await result(nl, 'tpa', 'settlement', 'success', october, true);
    const nlLine = (r: number, organisation: string, kwh: number, cost: number): Line => ({
      result: r,
      day: '2026-10-01',
      organisation,
      priceArea: ids['NL']!,
      kwh: [kwh, 0, 0, 0],
      cost: [cost, 0, 0, 0],
      charges: [0, 0, 0, cost * 0.21],
    });
    await line(nl, nlLine(results['plain']!, ids['NS']!, 999, 99));
    await line(nl, nlLine(results['tpa']!, ids['NS']!, 1200, 120));
    await line(nl, nlLine(results['tpa']!, ids['DBC']!, 300, 30));
    await result(nl, 'prices', 'price-and-supply', 'success', october);
    // [hour, organisation, category, kWh]
    for (const [hour, organisation, category, kwh] of [
      ['2026-10-01T08:00:00Z', 'NS', 'metered', 100],
      ['2026-10-01T08:00:00Z', 'NS', 'losses', 5],
      ['2026-10-01T08:00:00Z', 'DBC', 'estimated', 40],
      ['2026-10-01T09:00:00Z', 'NS', 'metered', 80],
      ['2026-11-01T09:00:00Z', 'NS', 'metered', 777],
    ] as const)
      await t.allAreas.query(
        `INSERT INTO priced_energy (tenant, hour_start, grid_area_uuid, price_area_uuid, organisation_uuid, category, energy_kwh)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [nl, hour, ids['GRID'], ids['NL'], ids[organisation], category, kwh],
      );

    // Portugal (Europe/Lisbon): October approved (and a newer success beside it), November success.
    const ptOctober: [string, string] = ['2026-09-30T23:00:00Z', '2026-11-01T00:00:00Z'];
    await result(pt, 'ptOctober', 'settlement', 'approved', ptOctober);
    await result(pt, 'ptOctoberNewer', 'settlement', 'success', ptOctober);
    await result(pt, 'ptNovember', 'settlement', 'success', ['2026-11-01T00:00:00Z', '2026-12-01T00:00:00Z']);
    const ptLine = (
      r: string,
      day: string,
      kwh: [number, number, number, number],
      cost: [number, number, number, number],
      charges: [number, number, number, number],
    ) => line(pt, { result: results[r]!, day, organisation: ids['CP']!, priceArea: ids['PT']!, kwh, cost, charges });
    // October in two days: 900 kWh metered and 100 losses, 100 EUR, 20 + 5 + 1 of charges, 23 % VAT on 126.
    await ptLine('ptOctober', '2026-10-01', [450, 0, 0, 50], [45, 0, 0, 5], [10, 2.5, 0.5, 14.49]);
    await ptLine('ptOctober', '2026-10-15', [450, 0, 0, 50], [45, 0, 0, 5], [10, 2.5, 0.5, 14.49]);
    await ptLine('ptOctoberNewer', '2026-10-01', [1, 0, 0, 0], [1, 0, 0, 0], [0, 0, 0, 0]);
    await ptLine('ptNovember', '2026-11-02', [400, 100, 0, 0], [40, 20, 0, 0], [10, 2.5, 0.5, 16.79]);
  }, 120_000);
  afterAll(async () => t?.close());

  it('each area lists only its own: the TPA reports in the Netherlands, the Portugal layout in Portugal', async () => {
    const names = async (kind: 'netherlands' | 'portugal') => {
      const res = await t.callAs(RESPONSIBLE, { method: 'GET', url: '/api/domain/reports' }, kind);
      return res.json<ReportDescription[]>().map((r) => r.name);
    };
    const nl = await names('netherlands');
    const pt = await names('portugal');
    expect(nl).toEqual(expect.arrayContaining(['tpa-settlement', 'tpa-supplier', 'settlementoverview']));
    expect(nl).not.toContain('portugal-settlementoverview');
    expect(pt).toContain('portugal-settlementoverview');
    expect(pt).not.toContain('tpa-settlement');
    const locales = await t.callAs(
      RESPONSIBLE,
      { method: 'GET', url: '/api/domain/reports/tpa-settlement' },
      'portugal',
    );
    expect(locales.statusCode).toBe(404);
  });

  it('tpa-settlement reads the TPA settlement’s version, never the plain one', async () => {
    const rows = await order('netherlands', 'tpa-settlement', { format: 'xml' }, 'year=2026&month=OCTOBER');
    expect(
      rows.map((r) => [r['organisation'], r['organisationId'], r['supplyEnergy'], r['total'], r['settlementVersion']]),
    ).toEqual([
      ['DB Cargo Nederland', 'DBC', '300.0000', '36.3000', String(results['tpa'])],
      ['NS Reizigers', 'NSR', '1200.0000', '145.2000', String(results['tpa'])],
    ]);
    // Naming the plain settlement's version is refused, and the other way round.
    for (const [report, id, words] of [
      ['tpa-settlement', results['plain'], 'TPA settlement'],
      ['settlement', results['tpa'], 'settlement'],
    ] as const) {
      const named = await t.callAs(
        RESPONSIBLE,
        {
          method: 'POST',
          url: `/api/processing/tasks/${report}?year=2026&month=10&processingId=${id}`,
          payload: { format: 'csv' },
        },
        'netherlands',
      );
      expect(named.statusCode).toBe(400);
      expect(named.json().errors[0].message).toBe(
        `Result ${id} is not a ${words} result with status approved or success`,
      );
    }
    const plain = await order('netherlands', 'settlement', { format: 'xml' }, 'year=2026&month=OCTOBER');
    expect(plain.map((r) => [r['organisation'], r['supplyEnergy'], r['settlementVersion']])).toEqual([
      ['NS Reizigers', '999.0000', String(results['plain'])],
    ]);
  });

  it('tpa-supplier: every organisation’s hourly volumes per price area', async () => {
    const rows = await order('netherlands', 'tpa-supplier', { format: 'xml' }, 'year=2026&month=10');
    expect(rows).toEqual([
      {
        priceArea: 'NL',
        organisation: 'DB Cargo Nederland',
        organisationId: 'DBC',
        hour: '2026-10-01T10:00:00+02:00',
        meteredEnergy: '0.0000',
        estimatedEnergy: '40.0000',
        otherEnergy: '0.0000',
        lossesEnergy: '0.0000',
        supplyEnergy: '40.0000',
      },
      {
        priceArea: 'NL',
        organisation: 'NS Reizigers',
        organisationId: 'NSR',
        hour: '2026-10-01T10:00:00+02:00',
        meteredEnergy: '100.0000',
        estimatedEnergy: '0.0000',
        otherEnergy: '0.0000',
        lossesEnergy: '5.0000',
        supplyEnergy: '105.0000',
      },
      {
        priceArea: 'NL',
        organisation: 'NS Reizigers',
        organisationId: 'NSR',
        hour: '2026-10-01T11:00:00+02:00',
        meteredEnergy: '80.0000',
        estimatedEnergy: '0.0000',
        otherEnergy: '0.0000',
        lossesEnergy: '0.0000',
        supplyEnergy: '80.0000',
      },
    ]);
  });

  it('portugal-settlementoverview: each month from its own version, in the Portuguese layout', async () => {
    const rows = await order(
      'portugal',
      'portugal-settlementoverview',
      { format: 'xml', reportSpecificParameters: { toYear: 2026, toMonth: 11 } },
      'year=2026&month=OCTOBER',
    );
    expect(rows).toEqual([
      {
        month: '2026-10',
        taxNumber: '500498601',
        organisation: 'CP Comboios de Portugal',
        priceArea: 'PT',
        supplyEnergy: '1000.0000',
        averageEnergyPrice: '100.0000',
        energyCost: '100.0000',
        networkAccess: '20.0000',
        energyFee: '5.0000',
        exciseTax: '1.0000',
        vatBase: '126.0000',
        vatRate: '23.0000',
        vat: '28.9800',
        total: '154.9800',
        settlementVersion: String(results['ptOctober']),
      },
      {
        month: '2026-11',
        taxNumber: '500498601',
        organisation: 'CP Comboios de Portugal',
        priceArea: 'PT',
        supplyEnergy: '500.0000',
        averageEnergyPrice: '120.0000',
        energyCost: '60.0000',
        networkAccess: '10.0000',
        energyFee: '2.5000',
        exciseTax: '0.5000',
        vatBase: '73.0000',
        vatRate: '23.0000',
        vat: '16.7900',
        total: '89.7900',
        settlementVersion: String(results['ptNovember']),
      },
    ]);
  });
});
