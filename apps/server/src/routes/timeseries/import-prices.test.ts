import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DataLogPage, TimeSeriesUploadResult } from '@railwatt/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateNordpoolCsv } from '../../formats/nordpool/nordpool-generate.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { waitForRun } from '../../test/jobs.js';
import { freePort, startOpenSshServer, type OpenSshServer } from '../../test/sftp-servers.js';
import { requireTool } from '../../test/tools.js';

const ADMIN = 'erex-administrator';
const RESPONSIBLE = 'settlement-area-responsible';
const IMPORT_PRICES = '/api/integration/prices/import-prices';

/**
 * GET /integration/prices/import-prices (Administration > Import prices): fetches the Nord Pool
 * files waiting for the caller's area on the enabled NORDPOOL routes, here on a real OpenSSH server,
 * and queues an import job per file.
 */
const hasSshd = requireTool('sshd', 'importing prices from OpenSSH');
describe.skipIf(!hasSshd)('importing prices from the NORDPOOL routes', () => {
  let t: TestApp;
  let server: OpenSshServer;
  const dir = (...parts: string[]) => join(server.path, ...parts);

  beforeAll(async () => {
    server = await startOpenSshServer();
    t = await createTestApp({ seeders: ['areas', 'users', 'fleet', 'infrastructure'], jobs: {} });
    mkdirSync(dir('prices/norway'), { recursive: true });
    mkdirSync(dir('prices/sweden'), { recursive: true });
    writeFileSync(
      dir('prices/norway/nordpool-2026-10-01.csv'),
      generateNordpoolCsv({ fromDay: '2026-10-01', days: 1 }),
    );
    writeFileSync(
      dir('prices/sweden/nordpool-2026-10-01.csv'),
      generateNordpoolCsv({ fromDay: '2026-10-01', days: 1, areas: ['SE1', 'SE2'], currency: 'SEK' }),
    );
    const res = await t.callAs(
      ADMIN,
      {
        method: 'POST',
        url: '/api/sftpintegration/interface-configuration/create-route',
        payload: {
          routeId: 'nordpool-in',
          description: 'Day-ahead prices',
          interfaceType: 'NORDPOOL',
          direction: 'IN',
          folder: null,
          serverType: 'INTERNAL',
          hostname: server.hostname,
          port: server.port,
          username: server.username,
          path: dir('prices'),
          backupPath: dir('prices-backup'),
          enabled: true,
          changeComment: '',
          subFolders: ['norway', 'sweden'],
          credentials: { privateKey: server.key.privateKey, passphrase: '' },
        },
      },
      'administration',
    );
    expect(res.statusCode, res.body).toBe(200);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await server?.close();
  });

  it('is for administrators: anyone else gets 403 and nothing is fetched', async () => {
    const res = await t.callAs(RESPONSIBLE, { method: 'GET', url: IMPORT_PRICES });
    expect(res.statusCode).toBe(403);
    expect(readdirSync(dir('prices/norway'))).toEqual(['nordpool-2026-10-01.csv']);
  });

  it("fetches the caller's area's price files, answers with the jobs, and stores spot prices and the exchange rate", async () => {
    const res = await t.callAs(ADMIN, { method: 'GET', url: IMPORT_PRICES });
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json<TimeSeriesUploadResult>();
    expect(answer).toMatchObject({ success: true, async: true, sheetParseResults: [] });
    expect(answer.jobIds).toHaveLength(1);
    expect(answer.dataLogIds).toHaveLength(1);
    const run = await waitForRun(t.database, answer.jobIds![0]!, { until: ['success', 'failure', 'dead'] });
    expect(run).toMatchObject({ status: 'success', tenant: t.areaUuid('norway') });

    const series = await t.allAreas.query<{ type: string; identifier: string; values: number }>(
      `SELECT s.type_name AS type, s.identifier, count(v.*)::int AS values
         FROM time_series s JOIN time_series_value v ON v.series_id = s.id
        WHERE s.tenant = $1 AND v.data_log_id = $2 GROUP BY 1, 2 ORDER BY 1, 2`,
      [t.areaUuid('norway'), answer.dataLogIds![0]],
    );
    const [settlementArea] = await t.allAreas.query<{ name: string }>(
      `SELECT name FROM entity_latest WHERE tenant = $1 AND type = 'settlementarea'`,
      [t.areaUuid('norway')],
    );
    expect(series).toEqual([
      { type: 'currency_exchange_rate', identifier: settlementArea!.name, values: 24 },
      ...['NO1', 'NO2', 'NO3', 'NO4', 'NO5'].map((identifier) => ({ type: 'spot_price', identifier, values: 24 })),
    ]);

    const log = await t.callAs(RESPONSIBLE, { method: 'GET', url: '/api/eventlog/datalog?size=1000' });
    expect(log.json<DataLogPage>().content.find((e) => e.id === answer.dataLogIds![0])).toMatchObject({
      messageStatus: 'OK',
      fileName: 'nordpool-2026-10-01.csv',
      username: 'sftp:nordpool-in',
      destination: 'nordpool-in',
    });
    // Moved to the backup path; another area's file waits for that area's call (or the schedule).
    expect(readdirSync(dir('prices/norway'))).toEqual([]);
    expect(readdirSync(dir('prices-backup/norway'))).toEqual(['nordpool-2026-10-01.csv']);
    expect(readdirSync(dir('prices/sweden'))).toEqual(['nordpool-2026-10-01.csv']);
  });

  it('answers a call with nothing waiting as done, without jobs', async () => {
    const res = await t.callAs(ADMIN, { method: 'GET', url: IMPORT_PRICES });
    expect(res.json<TimeSeriesUploadResult>()).toMatchObject({ success: true, async: false, jobIds: [] });
  });

  it('names a NORDPOOL route it could not read in the answer, and still imports from the others', async () => {
    writeFileSync(
      dir('prices/norway/nordpool-2026-10-02.csv'),
      generateNordpoolCsv({ fromDay: '2026-10-02', days: 1 }),
    );
    const created = await t.callAs(
      ADMIN,
      {
        method: 'POST',
        url: '/api/sftpintegration/interface-configuration/create-route',
        payload: {
          routeId: 'nordpool-in-down',
          description: 'Prices from a server that is down',
          interfaceType: 'NORDPOOL',
          direction: 'IN',
          folder: null,
          serverType: 'EXTERNAL',
          hostname: server.hostname,
          port: await freePort(),
          username: server.username,
          path: dir('prices'),
          backupPath: null,
          enabled: true,
          changeComment: '',
          subFolders: ['norway'],
          credentials: { privateKey: server.key.privateKey, passphrase: '' },
        },
      },
      'administration',
    );
    expect(created.statusCode, created.body).toBe(200);
    const res = await t.callAs(ADMIN, { method: 'GET', url: IMPORT_PRICES });
    expect(res.statusCode).toBe(200);
    const answer = res.json<TimeSeriesUploadResult>();
    expect(answer).toMatchObject({ success: false, async: true });
    expect(answer.jobIds).toHaveLength(1);
    expect(answer.sheetParseResults[0]!.failures).toEqual([
      { type: 'Route', errorMessage: expect.stringMatching(/^nordpool-in-down: /) },
    ]);
    expect((await waitForRun(t.database, answer.jobIds![0]!)).status).toBe('success');
  });
});
