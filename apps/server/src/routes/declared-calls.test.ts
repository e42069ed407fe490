import {
  ALL_CALLS,
  MESSAGE_TYPES,
  pathParamNames,
  POLICIES,
  policyRoles,
  ROLES,
  routerPath,
  fillPath,
  type AreaKind,
  type CallDeclaration,
  type Role,
} from '@railwatt/contracts';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { tenantDatabase, tenantExecutor } from '../db/tenant.js';
import { readTableWorkbook } from '../formats/xlsx/table-workbook.js';
import { insertAllocatedRecord } from '../modules/allocation/fixtures.js';
import { aggregateMeteredEnergy } from '../modules/settlement/metered-energy-aggregation.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { serviceContext } from '../test/context.js';
import { insertEntity } from '../test/entities.js';
import { ADMIN_ACTOR } from '../test/records.js';
import { DOCS_PREFIX } from '../plugins/docs.js';
import { API_PREFIX } from './register-call.js';

/**
 * The access and input tests of every declared call (packages/contracts/src/calls), generated from the
 * declarations: a call added to contracts is tested here without anyone writing a line, and a route
 * served without a declaration (or a declaration without its route) fails.
 */

const SOME_UUID = '7d0e4b8e-3c4f-4a57-9d5e-2f1b8f0c0a11';

/** The demo user named after each role holds it in every country (exchange-operator: exchange only). */
const areaOfRole = (role: Role): AreaKind => (role === 'exchange-operator' ? 'exchange' : 'norway');

type Shape = Record<string, z.ZodType>;
const shapeOf = (schema: z.ZodType | undefined): Shape =>
  (schema as unknown as { shape?: Shape } | undefined)?.shape ?? {};

/**
 * Values that a path or query parameter schema should refuse: not a uuid, a NUL character, not a
 * positive number, far too long. (A path segment over 100 characters already gets 404 from the router.)
 */
const HOSTILE_VALUES = ['not-a-uuid', 'a\u0000b', '-1', 'x'.repeat(5000)];

/** A path with some value in each parameter (the access hook runs before validation). */
const anyUrl = (call: CallDeclaration) =>
  API_PREFIX + fillPath(call.path, Object.fromEntries(pathParamNames(call.path).map((n) => [n, SOME_UUID])));

function request(call: CallDeclaration, url = anyUrl(call)): InjectOptions {
  return { method: call.method, url, ...(call.body ? { payload: {} } : {}) };
}

/** Served /api routes (not the docs, not the automatic HEAD) against the declarations, both ways. */
function compareRoutes(app: FastifyInstance): { undeclared: string[]; unserved: string[] } {
  const declared = new Set(ALL_CALLS.map((c) => `${c.method} ${API_PREFIX}${routerPath(c.path)}`));
  const served = new Set(
    app.apiRoutes
      .filter((r) => r.method !== 'HEAD' && !r.url.startsWith(DOCS_PREFIX))
      .map((r) => `${r.method} ${r.url}`),
  );
  return {
    undeclared: [...served].filter((r) => !declared.has(r)).sort(),
    unserved: [...declared].filter((r) => !served.has(r)).sort(),
  };
}

describe('the declared-vs-served comparison', () => {
  it('reports a route registered without a declaration', async () => {
    const t = await createTestApp({
      beforeReady: (app) => {
        app.get('/api/domain/undeclared', { config: { access: POLICIES.domainLookup } }, async () => ({}));
      },
    });
    try {
      expect(compareRoutes(t.app)).toEqual({ undeclared: ['GET /api/domain/undeclared'], unserved: [] });
    } finally {
      await t.close();
    }
  });
});

describe('every declared call', () => {
  let t: TestApp;
  const tokens = new Map<string, string>();
  const send = async (username: string, kind: AreaKind, options: InjectOptions) => {
    if (!tokens.has(username)) tokens.set(username, await t.tokenFor(username));
    return t.app.inject({
      ...options,
      headers: {
        authorization: `Bearer ${tokens.get(username)}`,
        'current-tenant-id': t.areaUuid(kind),
        ...(options.headers ?? {}),
      },
    });
  };

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  it('is served, and every /api route served is declared', () => {
    expect(compareRoutes(t.app)).toEqual({ undeclared: [], unserved: [] });
    // The route carries the declaration's policy, not a copy that could drift.
    for (const call of ALL_CALLS) {
      const routeOf = t.app.apiRoutes.find(
        (r) => r.method === call.method && r.url === `${API_PREFIX}${routerPath(call.path)}`,
      );
      expect({ id: call.id, access: routeOf?.access }).toEqual({ id: call.id, access: call.access });
    }
  });

  it('answers 401 without a token', async () => {
    for (const call of ALL_CALLS) {
      const response = await t.app.inject(request(call));
      expect({ id: call.id, status: response.statusCode }).toEqual({ id: call.id, status: 401 });
      expect(response.json()).toMatchObject({ status: 401 });
    }
  });

  it('answers 403 to every role outside its policy, and to a user without a function in the area', async () => {
    let checked = 0;
    for (const call of ALL_CALLS) {
      if (!call.access.tenant) continue;
      // The exchange operator holds nothing in Norway: no policy lets it act there.
      const stranger = await send('exchange-operator', 'norway', request(call));
      expect({ id: call.id, who: 'stranger', status: stranger.statusCode }).toEqual({
        id: call.id,
        who: 'stranger',
        status: 403,
      });
      for (const role of ROLES) {
        const kind = areaOfRole(role);
        const allowed = policyRoles(call.access, kind);
        if (allowed === 'any' || allowed.includes(role)) continue;
        const response = await send(role, kind, request(call));
        expect({ id: call.id, role, status: response.statusCode }).toEqual({ id: call.id, role, status: 403 });
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('answers 400 invalid_input to a bad body, bad path parameters and bad query values', async () => {
    let checked = 0;
    const expectInvalid = async (call: CallDeclaration & { id: string }, what: string, options: InjectOptions) => {
      const response = await send('erex-administrator', 'norway', options);
      expect({ id: call.id, what, status: response.statusCode }).toEqual({ id: call.id, what, status: 400 });
      expect({ id: call.id, what, code: response.json().code }).toEqual({ id: call.id, what, code: 'invalid_input' });
      checked += 1;
    };
    for (const call of ALL_CALLS) {
      if (call.body || call.upload) {
        // A JSON string where an object or a list belongs; an upload that is not multipart.
        await expectInvalid(call, 'body', {
          ...request(call),
          payload: '"not the body"',
          headers: { 'content-type': 'application/json' },
        });
      }
      for (const name of pathParamNames(call.path)) {
        const schema = shapeOf(call.params)[name];
        const bad = HOSTILE_VALUES.find((v) => schema && !schema.safeParse(v).success);
        // Every path parameter has a bound: an unbounded one is a gap this test reports.
        expect({ id: call.id, param: name, refusesSomething: bad !== undefined }).toEqual({
          id: call.id,
          param: name,
          refusesSomething: true,
        });
        const params = Object.fromEntries(pathParamNames(call.path).map((n) => [n, n === name ? bad : SOME_UUID]));
        await expectInvalid(call, `params.${name}`, request(call, API_PREFIX + fillPath(call.path, params)));
      }
      for (const [name, schema] of Object.entries(shapeOf(call.query))) {
        const bad = HOSTILE_VALUES.find((v) => !schema.safeParse(v).success);
        if (bad === undefined) continue;
        const url = `${anyUrl(call)}?${new URLSearchParams({ [name]: bad }).toString()}`;
        await expectInvalid(call, `query.${name}`, request(call, url));
      }
    }
    expect(checked).toBeGreaterThan(40);
  });

  /**
   * Issue 17 item 3: no call answers a consumer with another organisation's figures or files. Two
   * organisations A and B in Norway, each with its traction unit, consumption point, allocated
   * energy, priced energy, settlement lines, on-account amounts and parameter, metered-energy
   * aggregation file (and the TPA's file with both); a settlement run of the whole area and one
   * limited to B; an administrator's export of every organisation's parameter (a file of the area).
   * The demo consumer is linked to A. Every call the consumer may use is either sent (ROW_CHECKED:
   * its answer may name nothing of B) or named in AREA_WIDE with the reason its answer is the area's
   * own; a new call fails the test until it is put in one of them. Then the consumer is linked to no
   * organisation, and the same calls may name nothing of A either.
   */
  describe('what a consumer reads of the area’s organisations', () => {
    const CONSUMER = 'consumer';
    const OCTOBER = '2026-09-30T22:00:00Z'; // 1 October 2026 in Oslo
    const DAY = { start: '2026-10-01T00:00:00Z', end: '2026-10-02T00:00:00Z', day: '2026-10-01' };
    const RANGE = { start: '2026-09-01T00:00:00Z', end: '2026-11-01T00:00:00Z' };

    interface Organisation {
      uuid: string;
      orgId: string;
      name: string;
      unit: string;
      point: string;
      cpid: string;
    }
    interface Seeded {
      a: Organisation;
      b: Organisation;
      priceArea: string;
      gridArea: string;
      /** Settlement results: of the whole area, and limited to B. */
      areaResult: number;
      resultOfB: number;
      /** Data-log entries: each organisation's aggregation, the TPA's (both), the area's export. */
      entries: { a: number; b: number; tpa: number; areaExport: number };
    }
    let seeded: Seeded;

    /**
     * Calls whose answer is the area's on purpose: it names organisations (or may) because every
     * party of the area reads it, or it names none and needs an id of something the caller started.
     */
    const AREA_WIDE: Record<string, string> = {
      'domain.fleetAreas': 'master data: the areas of the fleet screens',
      'domain.query': 'master data: entities of the area by kind (organisations are reference data every party reads)',
      'domain.resolveMinimal': 'master data: names of the uuids the caller already holds',
      'domain.infrastructureAreaTypes': 'master data lookup',
      'domain.infrastructureOptionsSa': 'master data lookup',
      'domain.infrastructureSettlementAreasMinimal': 'master data lookup',
      'domain.infrastructureOptionsEusa': 'master data lookup',
      'domain.settlementAreaById': 'master data: the settlement area',
      'domain.organisations':
        'master data: the organisations of the area (the consumer reads Administration, product.md §2)',
      'domain.organisationAreasMinimal': 'master data: the areas of the organisation screens',
      'domain.organisationBranches': 'master data: organisations of type branch',
      'domain.filteredOrganisations': 'master data: organisations by type',
      'domain.organisationsOfType': 'master data: organisations by type',
      'domain.all': 'master data: entities of a kind; fleet kinds are refused to a consumer (DOMAIN_READERS)',
      'domain.minimalAll': 'master data: names of the entities of a kind',
      'domain.byId': 'master data: one entity',
      'domain.versions': 'master data: one entity’s versions',
      'domain.like': 'master data: name search',
      'organisations.ofTenant': 'master data: the organisations of an area',
      'organisations.marketFunctionsInTenant': 'master data: market functions held in an area',
      'organisations.settlementAreasNotUsedByInfrastructureManagers': 'master data lookup',
      'organisations.marketFunctions': 'master data: the market functions an organisation type may hold',
      'timeSeries.job': 'a background job’s progress, asked for by the id its starter was given; names no organisation',
    };

    const get = (url: string): InjectOptions => ({ method: 'GET', url: `/api${url}` });
    const post = (url: string, payload: object): InjectOptions => ({ method: 'POST', url: `/api${url}`, payload });
    const month = 'startYear=2026&startMonth=10';
    const schedule = {
      reportName: 'settlement',
      frequency: 'daily',
      time: '06:00',
      format: 'csv',
      destination: { destinationType: 'my email' },
    };
    const download = (id: number) =>
      post('/eventlog/datalog/download', { id, messageType: MESSAGE_TYPES.meteredEnergyAggregation });

    /** The requests sent for each call the consumer may use (a call may need several). */
    const ROW_CHECKED: Record<string, (s: Seeded) => InjectOptions[]> = {
      'user.me': () => [get('/user/me')],
      'user.settlementAreas': () => [get('/user/settlementareas')],
      'timeSeries.types': () => [get('/timeseries/types')],
      'timeSeries.export': (s) => [
        post('/excel/timeseries/export', { typeName: 'on_account_energy', timeRange: RANGE }),
        post('/excel/timeseries/export', { typeName: 'on_account_energy', refs: [s.b.uuid], timeRange: RANGE }),
      ],
      'timeSeries.cebdInputMaxDays': () => [get('/exchange/cebdinput/getmaxdays')],
      'dataLog.list': () => [get('/eventlog/datalog?size=100')],
      'dataLog.types': () => [get('/eventlog/datalog/types')],
      'dataLog.statuses': () => [get('/eventlog/datalog/statuses')],
      'dataLog.download': (s) => [
        ...Object.values(s.entries).map(download),
        post('/eventlog/datalog/download?response=true', {
          id: s.entries.b,
          messageType: MESSAGE_TYPES.meteredEnergyAggregation,
        }),
      ],
      'dataLog.reexport': (s) =>
        [s.entries.b, s.entries.tpa].map((id) =>
          post('/eventlog/datalog/reexport', { id, messageType: MESSAGE_TYPES.meteredEnergyAggregation }),
        ),
      'processing.findBy': () => [post('/eventlog/procedure-result/findBy?size=100', {})],
      'processing.statuses': () => [get('/eventlog/procedure-result/statuses?procedureName=settlement')],
      'processing.checkStatus': () => [get('/eventlog/procedure-result/checkStatus?procedureName=settlement')],
      'processing.exists': (s) => [
        post('/eventlog/procedure-result/exists?year=2026&month=10&procedureName=settlement', []),
        post('/eventlog/procedure-result/exists?year=2026&month=10&procedureName=settlement', [
          { uuid: s.b.uuid, type: 'Organisation' },
        ]),
      ],
      'processing.findLatest': (s) => [
        post('/eventlog/procedure-result/findLatest?procedureName=settlement', []),
        post('/eventlog/procedure-result/findLatest?procedureName=settlement', [
          { uuid: s.b.uuid, type: 'Organisation' },
        ]),
      ],
      'processing.events': () => [post('/eventlog/processingevent', {})],
      'processing.eventCount': () => [post('/eventlog/processingevent/count', {})],
      'processing.eventSummary': () => [post('/eventlog/processingevent/summary', {})],
      'processing.eventProcedureResultIds': () => [post('/eventlog/processingevent/procedure-result-ids', {})],
      'processing.eventExport': () => [post('/eventlog/processingevent/export', {})],
      'processing.excelEventExport': () => [post('/excel/eventlog/export', {})],
      'processing.errorCodes': () => [get('/eventlog/processingevent/errorcodes')],
      'processing.severities': () => [get('/eventlog/processingevent/severities')],
      'processing.errorCodesByProcess': () => [get('/eventlog/processingevent/settlement/errorcodesByProcess')],
      'processing.processes': () => [get('/domain/processes')],
      'processing.processesWithEvents': () => [get('/domain/processes/with-events')],
      'processingConfig.list': () => [get('/domain/processing-config/settlement')],
      'processingConfig.tuSettlement': () => [get('/domain/processing-config/tu-settlement')],
      'processingConfig.versions': () => [get(`/domain/settlementconfiguration/versions/${SOME_UUID}`)],
      'delayedTasks.count': () => [get('/eventlog/delayed-tasks/count?destinationUri=shunting-and-stabling')],
      'delayedTasks.list': () => [get('/eventlog/delayed-tasks?destinationUri=shunting-and-stabling')],
      'procedureTasks.settledConsumption': (s) => [
        post('/eventlog/procedure-result/settledConsumption/findByProcedureResultIds', [s.areaResult, s.resultOfB]),
      ],
      'statistics.dashboardStatistics': () => [get('/statistics/dashboardstatistics')],
      'statistics.dashboardEvents': () => [get('/statistics/dashboardevents')],
      'statistics.queueSize': () => [get('/statistics/queue-size')],
      'statistics.cebd': () => [get('/statistics/cebd')],
      'statistics.offsetLag': () => [get('/statistics/offset-lag')],
      'statistics.completenessTractionUnits': () => [get('/statistics/completenessverification/tractionunits')],
      'statistics.cebdDeliveryInfo': () => [
        get('/statistics/cebd-delivery-info?orgType=RAILWAY_UNDERTAKING'),
        get('/statistics/cebd-delivery-info?orgType=VEHICLE_KEEPER'),
      ],
      'settlement.baseVerification': () => [get(`/timeseries/settlement/settlementbaseverification?${month}`)],
      'settlement.balance': () => [get(`/timeseries/settlement/settlementbaseverification/balance?${month}`)],
      'settlement.lines': (s) =>
        [s.areaResult, s.resultOfB].map((id) => get(`/timeseries/settlement/lines?procedureResultId=${id}`)),
      'settlement.warnings': (s) =>
        [s.areaResult, s.resultOfB].map((id) => get(`/timeseries/settlement/warnings?procedureResultId=${id}`)),
      'settlement.hourly': (s) => [
        get(`/timeseries/settlement/hourly?${month}&organisation=${s.b.uuid}&priceArea=${s.priceArea}`),
      ],
      'settlement.records': (s) => [
        get(
          `/timeseries/settlement/records?organisation=${s.b.uuid}&gridArea=${s.gridArea}&hourStart=2026-10-01T10:00:00Z`,
        ),
      ],
      'parameterOverview.types': () => [get('/timeseries/parameterOverview/types')],
      'parameterOverview.overview': () => [
        get(`/timeseries/parameterOverview?typeName=on_account_energy&start=${RANGE.start}&end=${RANGE.end}`),
      ],
      'reports.list': () => [get('/domain/reports')],
      'reports.locales': () => [get('/domain/reports/settlement')],
      // No job runner here: orders that reach their job are checked in
      // modules/reports/worked-month-reports.test.ts (a consumer's report holds its own organisation only).
      'procedureTasks.task': (s) => [
        post('/processing/tasks/settlement?year=2026&month=10', { format: 'csv', reportSpecificParameters: { x: 1 } }),
        post('/processing/tasks/supplier?year=2026&month=10', {
          format: 'csv',
          refs: [{ uuid: s.b.uuid, type: 'GridArea' }],
        }),
      ],
      'reports.file': (s) => Object.values(s.entries).map((id) => get(`/eventlog/datalog/reports/${id}/file`)),
      // A schedule runs as its owner (modules/report-schedules): its answer is the consumer's own
      // schedules, and its runs see what the owner sees then.
      'reportSchedules.list': () => [get('/processing/scheduledreports')],
      'reportSchedules.save': () => [
        post('/processing/scheduledreports', { ...schedule, name: `Own ${Math.random()}` }),
      ],
      'reportSchedules.saveWithCredentials': () => [
        post('/processing/scheduledreports/with-credentials', {
          ...schedule,
          name: `Own by FTP ${Math.random()}`,
          destination: { destinationType: 'ftp', host: 'ftp.example.org', username: 'u', password: 'p' },
        }),
      ],
      'reportSchedules.remove': () => [
        { method: 'DELETE', url: '/api/processing/scheduledreports/00000000-0000-4000-8000-000000000001' },
      ],
    };

    const consumerCalls = ALL_CALLS.filter((call) => {
      const allowed = policyRoles(call.access, 'norway');
      return allowed === 'any' || allowed.includes('consumer');
    });

    /** An answer as text: workbooks (exports) by their cells, everything else as sent. */
    async function answerText(response: LightMyRequestResponse): Promise<string> {
      if (response.rawPayload.subarray(0, 2).toString('latin1') === 'PK')
        return JSON.stringify(await readTableWorkbook(response.rawPayload));
      return response.body;
    }

    /** What of `org` may never appear: its uuid, orgId, name, unit, consumption point and CPID. */
    const traces = (org: Organisation) => [org.uuid, org.orgId, org.name, org.unit, org.point, org.cpid];

    /** Sends every row-checked request as the consumer; answers the leaks found (call, status, what leaked). */
    async function leaks(hidden: readonly Organisation[]): Promise<string[]> {
      const found: string[] = [];
      for (const call of consumerCalls) {
        for (const options of ROW_CHECKED[call.id]?.(seeded) ?? []) {
          const response = await send(CONSUMER, 'norway', options);
          const where = `${call.id} ${options.method} ${options.url}`;
          // The consumer may use the call: an answer, an empty one, 400 or 404, never 403 or 5xx.
          if (response.statusCode === 403 || response.statusCode >= 500)
            found.push(`${where}: ${response.statusCode} ${response.body.slice(0, 200)}`);
          const text = await answerText(response);
          for (const org of hidden)
            for (const trace of traces(org)) if (text.includes(trace)) found.push(`${where}: names ${trace}`);
        }
      }
      return found;
    }

    const organisation = async (letter: 'A' | 'B'): Promise<Organisation> => {
      const db = tenantDatabase(t.database, t.areaUuid('norway'));
      const norway = t.areaUuid('norway');
      const orgId = `LEAK-${letter}`;
      const name = `Leak Rail ${letter}`;
      const uuid = await insertEntity(db, norway, 'organisation', name, {
        orgId,
        organisationTypes: ['RAILWAY_UNDERTAKING', 'VEHICLE_KEEPER'],
      });
      const unit = await insertEntity(db, norway, 'tractionunit', `Leak unit ${letter}`, {
        owner: uuid,
        evn: `EVN-LEAK-${letter}`,
      });
      const cpid = `CP-LEAK-${letter}`;
      const point = await insertEntity(db, norway, 'consumptionpoint', `Leak point ${letter}`, {
        cpid,
        tractionUnitRef: unit,
      });
      return { uuid, orgId, name, unit, point, cpid };
    };

    beforeAll(async () => {
      const norway = t.areaUuid('norway');
      const db = tenantDatabase(t.database, norway);
      const a = await organisation('A');
      const b = await organisation('B');
      const priceArea = await insertEntity(db, norway, 'pricearea', 'Leak NO1');
      const gridArea = await insertEntity(db, norway, 'gridarea', 'Leak G1', { priceAreaRef: priceArea });
      const result = async (refs: readonly Organisation[]) => {
        const [row] = await db.query<{ id: number }>(
          `INSERT INTO procedure_result (tenant, procedure_name, status, period_start, period_end, entity_refs, ref_uuids, username)
           VALUES ($1, 'settlement', 'success', $2, $2::timestamptz + interval '1 month', $3::jsonb, $4::uuid[], 'erex-administrator')
           RETURNING id`,
          [
            norway,
            OCTOBER,
            JSON.stringify(refs.map((o) => ({ uuid: o.uuid, type: 'Organisation' }))),
            refs.map((o) => o.uuid),
          ],
        );
        return Number(row!.id);
      };
      const areaResult = await result([]);
      const resultOfB = await result([b]);
      for (const [org, kwh] of [
        [a, 25],
        [b, 35],
      ] as const) {
        await insertAllocatedRecord(db, {
          tenant: norway,
          consumptionPoint: org.point,
          periodEnd: '2026-10-01T10:05:00Z',
          tractionUnit: org.unit,
          gridArea,
          priceArea,
          consumed: kwh,
          category: 'train-run',
          organisation: org.uuid,
        });
        await db.query(
          `INSERT INTO priced_energy (tenant, hour_start, grid_area_uuid, price_area_uuid, organisation_uuid, category,
                                      energy_kwh, price, cost)
           VALUES ($1, '2026-10-01T10:00:00Z', $2, $3, $4, 'metered', $5, 500, $5 * 0.5)`,
          [norway, gridArea, priceArea, org.uuid, kwh],
        );
        for (const id of [areaResult, resultOfB])
          await db.query(
            `INSERT INTO settlement_line (tenant, procedure_result_id, day, organisation_uuid, price_area_uuid, metered_kwh)
             VALUES ($1, $2, '2026-10-01', $3, $4, $5)`,
            [norway, id, org.uuid, priceArea, kwh],
          );
        await db.query(
          `INSERT INTO on_account (tenant, month_start, organisation_uuid, price_area_uuid, energy_kwh, cost, source)
           VALUES ($1, $2, $3, $4, 10, 5, 'parameter')`,
          [norway, OCTOBER, org.uuid, priceArea],
        );
        const [series] = await db.query<{ id: number }>(
          `INSERT INTO time_series (tenant, type_name, entity_uuid, entity_kind, identifier, resolution, unit)
           VALUES ($1, 'on_account_energy', $2, 'organisation', $3, 'P1M', 'kWh') RETURNING id`,
          [norway, org.uuid, org.orgId],
        );
        await db.query(
          `INSERT INTO time_series_value (tenant, series_id, start_time, value, quality) VALUES ($1, $2, $3, 10, 127)`,
          [norway, series!.id, OCTOBER],
        );
      }
      // The files as metered-energy-aggregation writes them: one per payer and the TPA's with both.
      const admin = serviceContext(tenantExecutor(t.database, norway), norway, ADMIN_ACTOR, {
        timeZone: 'Europe/Oslo',
      });
      const files = (await aggregateMeteredEnergy(admin, DAY, { aggregation: 'FIRST', tpa: true })).files;
      const entryOf = (key: string) => files.find((f) => f.fileName.startsWith(`MEA_${key}_`))!.dataLogId;
      // An administrator's export of every organisation's parameter: a file of the area, not the consumer's.
      const exported = await send(
        ADMIN_ACTOR.username,
        'norway',
        post('/excel/timeseries/export', { typeName: 'on_account_energy', timeRange: RANGE }),
      );
      expect(exported.statusCode, exported.body).toBe(200);
      const [areaExport] = await db.query<{ id: number }>(
        `SELECT id FROM data_log WHERE tenant = $1 AND message_type = $2 ORDER BY id DESC LIMIT 1`,
        [norway, MESSAGE_TYPES.timeSeriesExport],
      );
      seeded = {
        a,
        b,
        priceArea,
        gridArea,
        areaResult,
        resultOfB,
        entries: { a: entryOf(a.orgId), b: entryOf(b.orgId), tpa: entryOf('TPA'), areaExport: Number(areaExport!.id) },
      };
      await db.query(`INSERT INTO user_organisation (tenant, username, organisation_uuid) VALUES ($1, $2, $3)`, [
        norway,
        CONSUMER,
        a.uuid,
      ]);
    });

    it('has every call a consumer may use either row-checked or named as area-wide with its reason', () => {
      const ids = consumerCalls.map((c) => c.id);
      expect(ids.filter((id) => !(id in ROW_CHECKED) && !(id in AREA_WIDE))).toEqual([]);
      expect(ids.filter((id) => id in ROW_CHECKED && id in AREA_WIDE)).toEqual([]);
      // A name that is no declared call (any more) is a stale entry. (One the consumer may no longer
      // use is harmless: only the consumer's calls are sent.)
      const declared = ALL_CALLS.map((c) => c.id);
      expect([...Object.keys(ROW_CHECKED), ...Object.keys(AREA_WIDE)].filter((id) => !declared.includes(id))).toEqual(
        [],
      );
    });

    it('answers nothing of another organisation to a consumer, and its own figures and files', async () => {
      expect(await leaks([seeded.b])).toEqual([]);
      // Not empty answers: the consumer's own organisation is there.
      const lines = await send(
        CONSUMER,
        'norway',
        get(`/timeseries/settlement/lines?procedureResultId=${seeded.areaResult}`),
      );
      expect(lines.json().map((l: { organisation: { uuid: string } }) => l.organisation.uuid)).toEqual([seeded.a.uuid]);
      const consumption = await send(
        CONSUMER,
        'norway',
        post('/eventlog/procedure-result/settledConsumption/findByProcedureResultIds', [seeded.areaResult]),
      );
      expect(consumption.json()).toEqual([
        {
          procedureResultId: seeded.areaResult,
          organisation: { uuid: seeded.a.uuid, type: 'Organisation' },
          totalSettledConsumption: 25,
        },
      ]);
      // The data log: the consumer's aggregation only; the others' and the area's files are absent (404, as another area's).
      const log = await send(CONSUMER, 'norway', get('/eventlog/datalog?size=100'));
      expect(log.json().content.map((e: { id: number }) => e.id)).toEqual([seeded.entries.a]);
      expect((await send(CONSUMER, 'norway', download(seeded.entries.a))).statusCode).toBe(200);
      for (const id of [seeded.entries.b, seeded.entries.tpa, seeded.entries.areaExport])
        expect({ id, status: (await send(CONSUMER, 'norway', download(id))).statusCode }).toEqual({ id, status: 404 });
      // B's hourly figures name no organisation, so the row check cannot see them: none are answered.
      const hourly = await send(
        CONSUMER,
        'norway',
        get(`/timeseries/settlement/hourly?${month}&organisation=${seeded.b.uuid}&priceArea=${seeded.priceArea}`),
      );
      expect(hourly.json()).toEqual([]);
      // The process log: the run of the whole area, not the one limited to B.
      const results = await send(CONSUMER, 'norway', post('/eventlog/procedure-result/findBy?size=100', {}));
      expect(results.json().content.map((r: { id: number }) => r.id)).toEqual([seeded.areaResult]);
      const units = await send(CONSUMER, 'norway', get('/statistics/completenessverification/tractionunits'));
      expect(units.json().map((u: { uuid: string }) => u.uuid)).toEqual([seeded.a.unit]);
      // An administrator still sees both (the filter is the consumer's, not the data's).
      const all = await send('erex-administrator', 'norway', get('/eventlog/datalog?size=100'));
      expect(all.json().content.map((e: { id: number }) => e.id)).toEqual(
        expect.arrayContaining(Object.values(seeded.entries)),
      );
    });

    it('answers nothing of any organisation to a consumer linked to none', async () => {
      const norway = t.areaUuid('norway');
      await tenantDatabase(t.database, norway).query(
        `DELETE FROM user_organisation WHERE tenant = $1 AND username = $2`,
        [norway, CONSUMER],
      );
      expect(await leaks([seeded.a, seeded.b])).toEqual([]);
    });
  });
});
