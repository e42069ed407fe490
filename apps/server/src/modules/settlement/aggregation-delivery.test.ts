import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { procedureResultSchema, type DataLogEntry, type DataLogPage } from '@railwatt/contracts';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertAllocatedRecord } from '../allocation/fixtures.js';
import { tenantDatabase } from '../../db/tenant.js';
import { meteredEnergyDeliveryJob } from '../../jobs/metered-energy-delivery.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { insertEntity } from '../../test/entities.js';
import { waitForRun } from '../../test/jobs.js';
import { freePort, startOpenSshServer, type OpenSshServer } from '../../test/sftp-servers.js';
import { requireTool } from '../../test/tools.js';
import { runSftpIntake } from '../interface/intake-run.js';
import { deliveryFolder, parseAggregationResponse } from './aggregation-delivery.js';

const ADMIN = 'erex-administrator';
const RUNNER = 'erex-settlement-operator';
const READER = 'consumer';
const ROUTES = '/api/sftpintegration/interface-configuration';
const DAY = '2026-10-01';
// 1 October 2026 in Amsterdam (CEST, UTC+2).
const DAY_RANGE = { start: '2026-09-30T22:00:00Z', end: '2026-10-01T22:00:00Z' };

describe('where a route puts an organisation’s file, and how a response reads', () => {
  it('uses the area sub folder, the folder naming the area, or <path>/<area> for a route with neither', () => {
    const route = { path: '/out', folder: null, subFolders: ['netherlands', 'norway'] };
    expect(deliveryFolder(route, 'netherlands', 'RU1')).toBe('/out/netherlands/RU1');
    expect(deliveryFolder(route, 'sweden', 'RU1')).toBeNull();
    expect(deliveryFolder({ path: '/out', folder: 'Netherlands', subFolders: [] }, 'netherlands', 'TPA')).toBe(
      '/out/TPA',
    );
    expect(deliveryFolder({ path: '/out', folder: 'norway', subFolders: [] }, 'netherlands', 'TPA')).toBeNull();
    expect(deliveryFolder({ path: '/out', folder: null, subFolders: [] }, 'netherlands', 'RU1')).toBe(
      '/out/netherlands/RU1',
    );
  });

  it('reads ACCEPTED, REJECTED;<reason>, and calls anything else a parse error', () => {
    expect(parseAggregationResponse(Buffer.from('\uFEFF\nACCEPTED\r\n'))).toEqual({ status: 'ACCEPTED' });
    expect(parseAggregationResponse(Buffer.from('rejected; CP-9 unknown;again\nmore'))).toEqual({
      status: 'REJECTED',
      reason: 'CP-9 unknown;again',
    });
    expect(parseAggregationResponse(Buffer.from('REJECTED'))).toEqual({
      status: 'REJECTED',
      reason: 'no reason given',
    });
    expect(parseAggregationResponse(Buffer.from(''))).toMatchObject({ status: 'ERROR' });
    expect(parseAggregationResponse(Buffer.from('OK then'))).toMatchObject({
      status: 'ERROR',
      parseError: expect.stringContaining('"OK then"'),
    });
  });
});

/**
 * A metered-energy-aggregation file's journey, end to end: the run through the API, the delivery
 * job uploading to a real OpenSSH server (/usr/sbin/sshd on a local port), a failed upload and its
 * re-export, the RES_ response fetched by the SFTP intake and downloaded through the data log.
 */
const hasSshd = requireTool('sshd', 'the aggregation delivery to OpenSSH');
describe.skipIf(!hasSshd)('metered-energy-aggregation delivery over SFTP', () => {
  let t: TestApp;
  let server: OpenSshServer;
  /** The paying organisation (no orgId: its key in file and folder names is its uuid), the consumer's. */
  let org = '';
  const dir = (...parts: string[]) => join(server.path, ...parts);
  const NL = () => t.areaUuid('netherlands');

  const route = (over: Record<string, unknown>) => ({
    description: 'Metered energy aggregation',
    interfaceType: 'METERED_ENERGY_AGGREGATION',
    direction: 'OUT',
    folder: null,
    serverType: 'EXTERNAL',
    hostname: server.hostname,
    port: server.port,
    username: server.username,
    backupPath: null,
    enabled: true,
    changeComment: '',
    subFolders: ['netherlands'],
    credentials: { privateKey: server.key.privateKey, passphrase: '' },
    ...over,
  });
  const saveRoute = async (action: 'create-route' | 'update-route', over: Record<string, unknown>) => {
    const res = await t.callAs(
      ADMIN,
      { method: 'POST', url: `${ROUTES}/${action}`, payload: route(over) },
      'administration',
    );
    expect(res.statusCode, res.body).toBe(200);
  };

  const readRoute = async (routeId: string) => {
    const res = await t.callAs(
      ADMIN,
      { method: 'GET', url: `${ROUTES}/route-by-routeid?routeId=${routeId}` },
      'administration',
    );
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ hostKeyFingerprint: string | null }>();
  };

  const dataLog = async (reader = READER): Promise<DataLogEntry[]> => {
    const res = await t.callAs(
      reader,
      { method: 'GET', url: '/api/eventlog/datalog?size=100&types=METERED_ENERGY_AGGREGATION' },
      'netherlands',
    );
    expect(res.statusCode, res.body).toBe(200);
    return res.json<DataLogPage>().content.filter((e) => e.messageType === 'METERED_ENERGY_AGGREGATION');
  };

  /** Waits for every delivery job queued so far. */
  const deliveries = async () => {
    const queued = await t.allAreas.query<{ id: string }>(`SELECT id FROM job_run WHERE name = $1`, [
      meteredEnergyDeliveryJob.name,
    ]);
    for (const { id } of queued) {
      const run = await waitForRun(t.database, id, { until: ['success', 'failure', 'dead'] });
      expect(run.status, run.message ?? '').toBe('success');
    }
    return queued.length;
  };

  const runAggregation = async (query: string) => {
    const res = await t.callAs(
      RUNNER,
      {
        method: 'POST',
        url: `/api/processing/metered-energy-aggregation/run?zoneId=Europe/Amsterdam${query}`,
        payload: { timeRange: DAY_RANGE },
      },
      'netherlands',
    );
    expect(res.statusCode, res.body).toBe(200);
    const result = procedureResultSchema.parse(res.json());
    expect((await waitForRun(t.database, result.jobId!)).status).toBe('success');
    await deliveries();
  };

  beforeAll(async () => {
    server = await startOpenSshServer();
    t = await createTestApp({ seeders: ['areas', 'users'], jobs: {} });
    for (const folder of ['out', 'in/netherlands']) mkdirSync(dir(folder), { recursive: true });
    await saveRoute('create-route', { routeId: 'mea-out', path: dir('out') });
    await saveRoute('create-route', {
      routeId: 'mea-in',
      direction: 'IN',
      serverType: 'INTERNAL',
      path: dir('in'),
      backupPath: dir('backup'),
    });
    // Two hours of one consumption point, paid by an organisation without an orgId: its key (file
    // and folder name) is then its uuid.
    org = await insertEntity(tenantDatabase(t.database, NL()), NL(), 'organisation', 'Paying RU');
    const cp = randomUUID();
    const unit = randomUUID();
    for (const [periodEnd, consumed, regenerated] of [
      ['2026-10-01T08:05:00Z', 100, 10],
      ['2026-10-01T09:10:00Z', 50, 0],
    ] as const) {
      await insertAllocatedRecord(tenantDatabase(t.database, NL()), {
        tenant: NL(),
        consumptionPoint: cp,
        periodEnd,
        tractionUnit: unit,
        consumed,
        regenerated,
        category: 'train-run',
        organisation: org,
      });
    }
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await server?.close();
  });

  it('delivers the first aggregation’s files to the OUT route, each organisation in its folder, and says so', async () => {
    await runAggregation('&aggregation=FIRST');
    const entries = await dataLog(RUNNER);
    expect(entries).toHaveLength(2);
    expect(entries.map((e) => [e.fileName, e.messageStatus])).toEqual(
      expect.arrayContaining([
        [`MEA_${org}_${DAY}_FIRST.csv`, 'OK'],
        [`MEA_TPA_${DAY}_FIRST.csv`, 'OK'],
      ]),
    );
    const own = entries.find((e) => e.fileName!.startsWith(`MEA_${org}`))!;
    const remote = dir('out', 'netherlands', org, own.fileName!);
    // A consumer linked to no organisation sees neither file, and its download is answered as an
    // entry that does not exist (404, as another area's; this test once expected it to download the
    // paying organisation's file: issue 17 item 3). Linked to the paying organisation, it does.
    const unlinked = await t.callAs(
      READER,
      {
        method: 'POST',
        url: '/api/eventlog/datalog/download',
        payload: { id: own.id, messageType: 'METERED_ENERGY_AGGREGATION' },
      },
      'netherlands',
    );
    expect(unlinked.statusCode, unlinked.body).toBe(404);
    expect(await dataLog()).toEqual([]);
    await tenantDatabase(t.database, NL()).query(
      `INSERT INTO user_organisation (tenant, username, organisation_uuid) VALUES ($1, $2, $3)`,
      [NL(), READER, org],
    );
    expect((await dataLog()).map((e) => e.id).sort()).toEqual(entries.map((e) => e.id).sort());
    expect(own.messageText).toBe(`First aggregation of ${DAY}: 2 hourly values; delivered to mea-out:${remote}`);
    // The bytes on the server are the data log's, as downloaded (EXP_<name>).
    const download = await t.callAs(
      READER,
      {
        method: 'POST',
        url: '/api/eventlog/datalog/download',
        payload: { id: own.id, messageType: 'METERED_ENERGY_AGGREGATION' },
      },
      'netherlands',
    );
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-disposition']).toContain(`EXP_${own.fileName}`);
    expect(readFileSync(remote)).toEqual(download.rawPayload);
    expect(readFileSync(remote, 'utf8').split('\n')[1]).toMatch(
      /;2026-10-01T08:00:00Z;2026-10-01T09:00:00Z;100;10;90$/,
    );
    expect(readdirSync(dir('out', 'netherlands', 'TPA'))).toEqual([`MEA_TPA_${DAY}_FIRST.csv`]);
    // The route had no host key: the delivery pinned the one it met (OpenSSH's own reading of it).
    expect((await readRoute('mea-out')).hostKeyFingerprint).toBe(server.hostKeyFingerprint);
  }, 60_000);

  it('records a failed upload as ERROR with the reason, and a re-export sends the file again', async () => {
    await saveRoute('update-route', {
      routeId: 'mea-out',
      path: dir('out'),
      port: await freePort(),
      credentials: undefined,
    });
    // Without the option the run is the second aggregation (the configuration's default).
    await runAggregation('');
    const failed = (await dataLog()).filter((e) => e.fileName!.endsWith('_SECOND.csv'));
    expect(failed).toHaveLength(2);
    for (const entry of failed) {
      expect(entry.messageStatus).toBe('ERROR');
      expect(entry.messageText).toMatch(
        /^Second aggregation of 2026-10-01: 2 hourly values; delivery failed: mea-out: Host 127\.0\.0\.1:\d+ unreachable/,
      );
    }
    const own = failed.find((e) => e.fileName!.startsWith(`MEA_${org}`))!;

    await saveRoute('update-route', { routeId: 'mea-out', path: dir('out'), credentials: undefined });
    // Re-export is the administrator's (product.md §6): the consumer who reads the entry may not.
    const reexport = { id: own.id, messageType: 'METERED_ENERGY_AGGREGATION' };
    const refused = await t.callAs(
      READER,
      { method: 'POST', url: '/api/eventlog/datalog/reexport', payload: reexport },
      'netherlands',
    );
    expect(refused.statusCode).toBe(403);
    const res = await t.callAs(
      ADMIN,
      { method: 'POST', url: '/api/eventlog/datalog/reexport', payload: reexport },
      'netherlands',
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: own.id, messageStatus: 'RETRIED' });
    await deliveries();
    const after = await dataLog();
    const original = after.find((e) => e.id === own.id)!;
    const again = after.find((e) => e.id > own.id && e.fileName === own.fileName)!;
    expect(original.messageText).toBe(`Re-exported by ${ADMIN} as entry ${again.id}`);
    expect(again).toMatchObject({ messageStatus: 'OK', destination: own.destination });
    expect(again.messageText).toMatch(
      new RegExp(
        `^Re-export of entry ${own.id}: Second aggregation of 2026-10-01: 2 hourly values; delivered to mea-out:`,
      ),
    );
    expect(readFileSync(dir('out', 'netherlands', org, own.fileName!), 'utf8')).toContain(';100;10;90');
    // A re-exported file keeps its time series (the consumption point's line).
    expect(again.messageLogTimeSeries).toHaveLength(1);
  }, 60_000);

  it('attaches a RES_ response fetched from the IN route to its export, sets its status, and downloads it', async () => {
    const entries = await dataLog();
    const own = entries.find((e) => e.fileName === `MEA_${org}_${DAY}_FIRST.csv`)!;
    const tpa = entries.find((e) => e.fileName === `MEA_TPA_${DAY}_FIRST.csv`)!;
    writeFileSync(dir('in', 'netherlands', `RES_${own.fileName}`), 'REJECTED;hour 08:00 exceeds the contract\n');
    writeFileSync(dir('in', 'netherlands', `RES_${tpa.fileName}`), 'ACCEPTED\n');
    writeFileSync(dir('in', 'netherlands', 'RES_MEA_nobody_2026-10-01_FIRST.csv'), 'ACCEPTED\n');
    const summary = await runSftpIntake({
      database: t.database,
      credentialsKey: undefined,
      allowedHosts: undefined,
      queue: { enqueueImport: () => Promise.reject(new Error('nothing to import')) },
      maxFileBytes: 10_000,
      log: pino({ level: 'silent' }),
    });
    expect(summary.dataLogIds.sort()).toEqual([own.id, tpa.id].sort());
    // A response naming no export stays on the server, said why.
    expect(summary.routes[0]!.outcome.skipped).toEqual([
      {
        remotePath: dir('in', 'netherlands', 'RES_MEA_nobody_2026-10-01_FIRST.csv'),
        reason: 'No metered energy aggregation export named MEA_nobody_2026-10-01_FIRST.csv in netherlands',
      },
    ]);

    const after = await dataLog();
    expect(after.find((e) => e.id === own.id)).toMatchObject({
      messageStatus: 'REJECTED',
      messageText: expect.stringMatching(/; rejected: hour 08:00 exceeds the contract \(response from mea-in\)$/),
    });
    expect(after.find((e) => e.id === tpa.id)).toMatchObject({ messageStatus: 'ACCEPTED' });
    const response = await t.callAs(
      READER,
      {
        method: 'POST',
        url: '/api/eventlog/datalog/download?response=true',
        payload: { id: own.id, messageType: 'METERED_ENERGY_AGGREGATION' },
      },
      'netherlands',
    );
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-disposition']).toContain(`RES_${own.fileName}`);
    expect(response.body).toBe('REJECTED;hour 08:00 exceeds the contract\n');

    // A REJECTED aggregation may be re-exported (calls.md §4), by the administrator (product.md §6).
    const reexport = await t.callAs(
      ADMIN,
      {
        method: 'POST',
        url: '/api/eventlog/datalog/reexport',
        payload: { id: own.id, messageType: 'METERED_ENERGY_AGGREGATION' },
      },
      'netherlands',
    );
    expect(reexport.statusCode, reexport.body).toBe(200);
    await deliveries();
  }, 60_000);

  it('sends nothing to a server that presents another host key than the pinned one, and says so', async () => {
    const before = readdirSync(dir('out', 'netherlands', org));
    // As if the machine at the route's address had been replaced: the route's pin no longer matches.
    const pinned = `SHA256:${'A'.repeat(43)}`;
    await saveRoute('update-route', {
      routeId: 'mea-out',
      path: dir('out'),
      credentials: undefined,
      hostKeyFingerprint: pinned,
    });
    await runAggregation('&aggregation=FIRST');
    const refused = (await dataLog()).filter((e) => e.messageStatus === 'ERROR' && e.fileName!.endsWith('_FIRST.csv'));
    expect(refused).toHaveLength(2);
    for (const entry of refused)
      expect(entry.messageText).toContain(
        `delivery failed: mea-out: The server at ${server.hostname}:${server.port} presented the host key ${server.hostKeyFingerprint}, not the route's ${pinned}`,
      );
    expect(readdirSync(dir('out', 'netherlands', org))).toEqual(before);
    // The pin stays as the administrator set it: a refused key is never pinned over it.
    expect((await readRoute('mea-out')).hostKeyFingerprint).toBe(pinned);
  }, 60_000);
});
