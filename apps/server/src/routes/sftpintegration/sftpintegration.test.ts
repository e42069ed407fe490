import { randomBytes } from 'node:crypto';
import {
  EXPORT_FILE_NAMES,
  HOST_KEY_FINGERPRINT,
  INTERFACE_ROUTE_MESSAGES,
  INTERFACE_TYPES,
} from '@railwatt/contracts';
import ExcelJS from 'exceljs';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllowedHosts } from '../../modules/interface/allowed-hosts.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { generateKeyPair, startSsh2SftpServer, type TestSftpServer } from '../../test/sftp-servers.js';

const BASE = '/api/sftpintegration/interface-configuration';
const ADMIN = 'erex-administrator';
const PASSWORD = 'pw-that-must-never-leak-7c1d';
const KEY = generateKeyPair('key-passphrase-never-leaks');
/** A line of the key's body: what would show if the key leaked. */
const KEY_BODY = KEY.privateKey.split('\n')[2]!;

const route = (over: Record<string, unknown> = {}) => ({
  routeId: 'cebd-in-no',
  description: 'CEBD from the Norwegian DCS',
  interfaceType: 'CEBD',
  direction: 'IN',
  folder: 'cebd/no',
  serverType: 'INTERNAL',
  username: 'railwatt',
  path: 'incoming/cebd',
  backupPath: 'backup/cebd',
  hostname: 'sftp.internal.example',
  port: 2222,
  enabled: true,
  changeComment: '',
  subFolders: ['a', 'b'],
  credentials: { password: PASSWORD },
  ...over,
});

describe('SFTP interface configuration', () => {
  let t: TestApp;
  /** Every answer body of this file, to check that no secret ever left the server. */
  const answers: string[] = [];
  const call = async (options: InjectOptions, username = ADMIN) => {
    const response = await t.callAs(username, options, 'administration');
    answers.push(response.body);
    return response;
  };

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  it('creates a route: paths start with a slash, an empty comment is null, credentials are only named', async () => {
    const response = await call({ method: 'POST', url: `${BASE}/create-route`, payload: route() });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({
      routeId: 'cebd-in-no',
      path: '/incoming/cebd',
      backupPath: '/backup/cebd',
      changeComment: null,
      port: 2222,
      subFolders: ['a', 'b'],
      credentialsKind: 'password',
      createdBy: ADMIN,
      updatedBy: ADMIN,
    });
    expect(body).not.toHaveProperty('credentials');
  });

  it('refuses a second route with the same id (in any case)', async () => {
    const response = await call({
      method: 'POST',
      url: `${BASE}/create-route`,
      payload: route({ routeId: 'CEBD-IN-NO' }),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'uniquename', message: INTERFACE_ROUTE_MESSAGES.routeIdExists });
  });

  it('refuses a backup path unless the server is INTERNAL and the direction IN, naming the field', async () => {
    for (const over of [{ direction: 'OUT' }, { serverType: 'EXTERNAL' }]) {
      const response = await call({
        method: 'POST',
        url: `${BASE}/create-route`,
        payload: route({ routeId: 'cebd-out', ...over }),
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toEqual([
        expect.objectContaining({ field: 'backupPath', message: INTERFACE_ROUTE_MESSAGES.backupPathNotAllowed }),
      ]);
    }
    const ok = await call({
      method: 'POST',
      url: `${BASE}/create-route`,
      payload: route({
        routeId: 'utilts-out-se',
        interfaceType: 'UTILTS',
        direction: 'OUT',
        serverType: 'EXTERNAL',
        backupPath: null,
        hostname: 'sftp.partner.example',
        credentials: { privateKey: KEY.privateKey, passphrase: 'key-passphrase-never-leaks' },
      }),
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ backupPath: null, credentialsKind: 'privateKey' });
  });

  it('refuses ".." in remote paths and folders and control characters in the username, naming the field', async () => {
    const refused: [Record<string, unknown>, string, string][] = [
      [{ path: 'incoming/../../etc' }, 'path', INTERFACE_ROUTE_MESSAGES.pathFormat],
      [{ path: '..' }, 'path', INTERFACE_ROUTE_MESSAGES.pathFormat],
      [{ path: 'in\\..\\out' }, 'path', INTERFACE_ROUTE_MESSAGES.pathFormat],
      [{ path: 'in\ncoming' }, 'path', INTERFACE_ROUTE_MESSAGES.pathFormat],
      [{ backupPath: '/backup/../../root' }, 'backupPath', INTERFACE_ROUTE_MESSAGES.pathFormat],
      [{ folder: '../norway' }, 'folder', INTERFACE_ROUTE_MESSAGES.pathFormat],
      [{ subFolders: ['norway', '../belgium'] }, 'subFolders.1', INTERFACE_ROUTE_MESSAGES.subFolderFormat],
      [{ username: 'rail\u0007watt' }, 'username', INTERFACE_ROUTE_MESSAGES.usernameFormat],
      [{ username: 'railwatt\r\nX' }, 'username', INTERFACE_ROUTE_MESSAGES.usernameFormat],
    ];
    for (const [over, field, message] of refused) {
      for (const url of [`${BASE}/create-route`, `${BASE}/update-route`]) {
        const response = await call({ method: 'POST', url, payload: route({ routeId: 'cebd-in-no', ...over }) });
        expect({ url, over, status: response.statusCode }).toEqual({ url, over, status: 400 });
        expect(response.json().errors).toEqual([expect.objectContaining({ field, message })]);
      }
    }
    // Dots inside a name are a name, not a step up: contracts domain/interface-route.test.ts.
  });

  it('refuses credentials that are neither a password nor a PEM private key', async () => {
    const response = await call({
      method: 'POST',
      url: `${BASE}/create-route`,
      payload: route({ routeId: 'bad-key', credentials: { privateKey: 'ssh-ed25519 AAAA public' } }),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('invalid_input');
  });

  it('updates a route and records each change with comment, who and when', async () => {
    const first = await call({
      method: 'POST',
      url: `${BASE}/update-route`,
      payload: route({ hostname: 'sftp2.internal.example', changeComment: 'New server', credentials: undefined }),
    });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ hostname: 'sftp2.internal.example', credentialsKind: 'password' });
    const second = await call({
      method: 'POST',
      url: `${BASE}/update-route`,
      payload: route({
        hostname: 'sftp2.internal.example',
        changeComment: 'Key instead of password',
        credentials: { privateKey: KEY.privateKey, passphrase: 'key-passphrase-never-leaks' },
      }),
    });
    expect(second.json()).toMatchObject({ credentialsKind: 'privateKey', changeComment: 'Key instead of password' });

    const history = await call({ method: 'GET', url: `${BASE}/route-history?routeId=cebd-in-no` });
    expect(history.statusCode).toBe(200);
    const entries = history.json() as Record<string, unknown>[];
    expect(entries.map((e) => [e.change, e.changedFields, e.credentialsChanged, e.changeComment])).toEqual([
      ['UPDATED', [], true, 'Key instead of password'],
      ['UPDATED', ['hostname'], false, 'New server'],
      ['CREATED', expect.arrayContaining(['hostname', 'path']), true, null],
    ]);
    expect(entries[0]).toMatchObject({ changedBy: ADMIN, route: { hostname: 'sftp2.internal.example' } });
    expect(Date.parse(String(entries[0]!.changedAt))).toBeGreaterThan(Date.now() - 60_000);
  });

  it('answers 404 for an unknown route', async () => {
    for (const url of [`${BASE}/route-by-routeid?routeId=nope`, `${BASE}/route-history?routeId=nope`]) {
      expect((await call({ method: 'GET', url })).statusCode).toBe(404);
    }
    const update = await call({ method: 'POST', url: `${BASE}/update-route`, payload: route({ routeId: 'nope' }) });
    expect(update.statusCode).toBe(404);
  });

  it('enables and disables the selected routes, one history entry per changed route', async () => {
    const off = await call({
      method: 'POST',
      url: `${BASE}/enable-disable`,
      payload: { routeIds: ['cebd-in-no', 'utilts-out-se'], enabled: false, changeComment: 'Maintenance' },
    });
    expect(off.statusCode).toBe(200);
    expect((off.json() as { enabled: boolean }[]).map((r) => r.enabled)).toEqual([false, false]);
    // Already disabled: answered, but no new entry.
    await call({
      method: 'POST',
      url: `${BASE}/enable-disable`,
      payload: { routeIds: ['cebd-in-no'], enabled: false },
    });
    const on = await call({
      method: 'POST',
      url: `${BASE}/enable-disable`,
      payload: { routeIds: ['utilts-out-se'], enabled: true },
    });
    expect(on.json()).toEqual([expect.objectContaining({ routeId: 'utilts-out-se', enabled: true })]);
    const history = (await call({ method: 'GET', url: `${BASE}/route-history?routeId=utilts-out-se` })).json() as {
      change: string;
      changeComment: string | null;
    }[];
    expect(history.map((e) => [e.change, e.changeComment])).toEqual([
      ['ENABLED', null],
      ['DISABLED', 'Maintenance'],
      ['CREATED', null],
    ]);
    const unknown = await call({
      method: 'POST',
      url: `${BASE}/enable-disable`,
      payload: { routeIds: ['cebd-in-no', 'ghost'], enabled: true },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors[0].message).toContain('ghost');
  });

  it('lists route ids, interface types and one route', async () => {
    expect((await call({ method: 'GET', url: `${BASE}/routeid` })).json()).toEqual(['cebd-in-no', 'utilts-out-se']);
    expect((await call({ method: 'GET', url: `${BASE}/interface-types` })).json()).toEqual([...INTERFACE_TYPES]);
    const one = await call({ method: 'GET', url: `${BASE}/route-by-routeid?routeId=CEBD-IN-NO` });
    expect(one.json()).toMatchObject({ routeId: 'cebd-in-no', enabled: false });
  });

  it('filters routes by type, direction, enabled and a search string, paged', async () => {
    const ids = async (query: string) =>
      (
        (await call({ method: 'GET', url: `${BASE}/filtered-routes?${query}` })).json() as {
          content: { routeId: string }[];
        }
      ).content.map((r) => r.routeId);
    expect(await ids('')).toEqual(['cebd-in-no', 'utilts-out-se']);
    expect(await ids('interfaceType=UTILTS')).toEqual(['utilts-out-se']);
    expect(await ids('direction=IN')).toEqual(['cebd-in-no']);
    expect(await ids('enabled=true')).toEqual(['utilts-out-se']);
    expect(await ids('search=PARTNER')).toEqual(['utilts-out-se']);
    expect(await ids('search=%25')).toEqual([]);
    expect(await ids('sortBy=interfaceType&descendingOrder=true')).toEqual(['utilts-out-se', 'cebd-in-no']);
    const page = (await call({ method: 'GET', url: `${BASE}/filtered-routes?size=1&page=1` })).json();
    expect(page).toMatchObject({ totalElements: 2, totalPages: 2, number: 1, size: 1 });
    expect(page.content.map((r: { routeId: string }) => r.routeId)).toEqual(['utilts-out-se']);
  });

  it('exports InterfaceConfigurations.xlsx with readable headers and no credentials', async () => {
    const response = await call({
      method: 'POST',
      url: '/api/excel/sftp/integrationconfigurations/download',
      payload: {},
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="${EXPORT_FILE_NAMES.interfaceConfigurations}"`,
    );
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual([
      'Route id',
      'Description',
      'Interface type',
      'Direction',
      'Server type',
      'Hostname',
      'Port',
      'Username',
      'Path',
      'Backup path',
      'Folder',
      'Sub folders',
      'Enabled',
      'Credentials',
      'Host key',
      'Change comment',
      'Changed by',
      'Changed',
    ]);
    expect(sheet.rowCount).toBe(3);
    expect((sheet.getRow(2).values as unknown[]).slice(1, 10)).toEqual([
      'cebd-in-no',
      'CEBD from the Norwegian DCS',
      'CEBD',
      'IN',
      'INTERNAL',
      'sftp2.internal.example',
      2222,
      'railwatt',
      '/incoming/cebd',
    ]);
    expect(sheet.getRow(2).getCell(14).value).toBe('Private key');
    const selected = await call({
      method: 'POST',
      url: '/api/excel/sftp/integrationconfigurations/download',
      payload: { routeIds: ['utilts-out-se'] },
    });
    const one = new ExcelJS.Workbook();
    await one.xlsx.load(selected.rawPayload as unknown as ArrayBuffer);
    expect(one.worksheets[0]!.rowCount).toBe(2);
    // Like every file that leaves, the export is a data-log entry of the area it was made in.
    const logged = await t.allAreas.query<{ tenant: string; message_status: string; file_name: string }>(
      `SELECT tenant, message_status, file_name FROM data_log WHERE message_type = 'INTERFACE_CONFIGURATION_EXPORT'`,
    );
    expect(logged).toEqual([
      { tenant: t.areaUuid('administration'), message_status: 'OK', file_name: 'InterfaceConfigurations.xlsx' },
      { tenant: t.areaUuid('administration'), message_status: 'OK', file_name: 'InterfaceConfigurations.xlsx' },
    ]);
    const text = JSON.stringify(workbook.worksheets[0]!.getSheetValues());
    expect(text).not.toContain(PASSWORD);
    expect(text).not.toContain(KEY_BODY);
  });

  it("is the erex-administrator's alone", async () => {
    for (const username of ['settlement-area-responsible', 'erex-settlement-operator']) {
      const response = await t.callAs(username, { method: 'GET', url: `${BASE}/routeid` }, 'norway');
      expect({ username, status: response.statusCode }).toEqual({ username, status: 403 });
    }
  });

  describe('test connection', () => {
    let server: TestSftpServer;
    beforeAll(async () => {
      server = await startSsh2SftpServer({ username: 'railwatt', password: PASSWORD, publicKey: KEY.publicKey });
    });
    afterAll(async () => server?.close());
    /** The route of these tests, to the ssh2 server, with `over`. */
    const ssh2Route = (over: Record<string, unknown> = {}) =>
      route({
        routeId: 'ssh2-test',
        hostname: server.hostname,
        port: server.port,
        path: 'data',
        backupPath: null,
        credentials: { privateKey: KEY.privateKey, passphrase: 'key-passphrase-never-leaks' },
        ...over,
      });

    it('connects to a saved route with its stored (decrypted) credentials', async () => {
      const saved = await call({ method: 'POST', url: `${BASE}/create-route`, payload: ssh2Route() });
      expect(saved.statusCode).toBe(200);
      const response = await call({
        method: 'POST',
        url: `${BASE}/test-connection`,
        payload: { routeId: 'ssh2-test' },
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        ok: true,
        outcome: 'ok',
        entries: ['archive/', 'cebd-001.xml', 'cebd-002.xml'],
      });
    });

    it('pins the host key the first test meets, keeps to it, and lets the administrator change or clear it', async () => {
      const test = async () =>
        (await call({ method: 'POST', url: `${BASE}/test-connection`, payload: { routeId: 'ssh2-test' } })).json<{
          ok: boolean;
          outcome: string;
          message: string;
          hostKeyFingerprint?: string;
          hostKeyPinned?: boolean;
        }>();
      const stored = async () =>
        (await call({ method: 'GET', url: `${BASE}/route-by-routeid?routeId=ssh2-test` })).json<{
          hostKeyFingerprint: string | null;
        }>().hostKeyFingerprint;
      const update = (over: Record<string, unknown>) =>
        call({ method: 'POST', url: `${BASE}/update-route`, payload: ssh2Route({ credentials: undefined, ...over }) });

      // The route was saved without a key: the test before pinned the one it met (accept-new).
      const key = await stored();
      expect(key).toMatch(HOST_KEY_FINGERPRINT);
      const history = (await call({ method: 'GET', url: `${BASE}/route-history?routeId=ssh2-test` })).json<
        { changedFields: string[]; changeComment: string | null; changedBy: string }[]
      >();
      expect(history[0]).toMatchObject({
        changedFields: ['hostKeyFingerprint'],
        changeComment: 'Host key pinned on the first connection',
        changedBy: ADMIN,
      });
      // Tested again: the same key passes, nothing new pinned.
      expect(await test()).toMatchObject({ ok: true, hostKeyFingerprint: key });
      expect((await test()).hostKeyPinned).toBeUndefined();

      // An update that leaves the key out keeps it; a malformed one is refused on its field.
      expect((await update({ description: 'kept' })).statusCode).toBe(200);
      expect(await stored()).toBe(key);
      const malformed = await update({ hostKeyFingerprint: 'MD5:ab:cd' });
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json()).toMatchObject({
        errors: [expect.objectContaining({ message: INTERFACE_ROUTE_MESSAGES.hostKeyFormat })],
      });

      // Another key entered by hand: the same server is now refused, and says which key it showed.
      const other = `SHA256:${'B'.repeat(43)}`;
      expect((await update({ hostKeyFingerprint: other })).statusCode).toBe(200);
      expect(await test()).toMatchObject({ ok: false, outcome: 'host_key_mismatch', hostKeyFingerprint: key });
      expect(await stored()).toBe(other);

      // Cleared (empty): the next test pins the key it meets again.
      expect((await update({ hostKeyFingerprint: '' })).statusCode).toBe(200);
      expect(await stored()).toBeNull();
      expect(await test()).toMatchObject({ ok: true, hostKeyPinned: true, hostKeyFingerprint: key });
      expect(await stored()).toBe(key);

      // Another server (hostname or port changed) has a key of its own: the pin goes with the old one.
      expect((await update({ port: server.port + 1 })).statusCode).toBe(200);
      expect(await stored()).toBeNull();
      expect((await update({})).statusCode).toBe(200);
    });

    it('connects to an unsaved route, with its own credentials or the stored ones of its id', async () => {
      const unsaved = route({
        routeId: 'not-saved',
        hostname: server.hostname,
        port: server.port,
        path: '/data',
        backupPath: null,
      });
      const withOwn = await call({ method: 'POST', url: `${BASE}/test-connection`, payload: { route: unsaved } });
      expect(withOwn.json()).toMatchObject({ ok: true });
      const { credentials: _none, ...withoutCredentials } = route({
        routeId: 'ssh2-test',
        hostname: server.hostname,
        port: server.port,
        path: '/nowhere',
        backupPath: null,
      });
      const stored = await call({
        method: 'POST',
        url: `${BASE}/test-connection`,
        payload: { route: withoutCredentials },
      });
      expect(stored.json()).toMatchObject({ ok: false, outcome: 'path_missing' });
    });

    it('answers a failure as ok false, never a 5xx', async () => {
      const response = await call({
        method: 'POST',
        url: `${BASE}/test-connection`,
        payload: {
          route: route({
            routeId: 'x',
            hostname: server.hostname,
            port: server.port,
            backupPath: null,
            credentials: { password: 'wrong' },
          }),
        },
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ ok: false, outcome: 'auth_failed' });
    });
  });

  it('never answers credentials, and stores none in plain text', async () => {
    const all = answers.join('\n');
    expect(all).not.toContain(PASSWORD);
    expect(all).not.toContain('key-passphrase-never-leaks');
    expect(all).not.toContain(KEY_BODY);
    const stored = await t.allAreas.query<Record<string, unknown>>(
      `SELECT r::text AS route FROM interface_route r UNION ALL SELECT h::text FROM interface_route_history h`,
    );
    const dump = JSON.stringify(stored);
    expect(dump).toContain('v1.');
    expect(dump).not.toContain(PASSWORD);
    expect(dump).not.toContain('key-passphrase-never-leaks');
    expect(dump).not.toContain(KEY_BODY);
  });
});

describe('INTERFACE_CREDENTIALS_KEY', () => {
  it('encrypts with the configured key and stores no key of its own', async () => {
    const t = await createTestApp({ config: { interfaceCredentialsKey: randomBytes(32) } });
    try {
      const server = await startSsh2SftpServer({ username: 'railwatt', password: PASSWORD });
      try {
        const created = await t.callAs(
          ADMIN,
          {
            method: 'POST',
            url: `${BASE}/create-route`,
            payload: route({ hostname: server.hostname, port: server.port, path: '/data' }),
          },
          'administration',
        );
        expect(created.statusCode).toBe(200);
        const tested = await t.callAs(
          ADMIN,
          { method: 'POST', url: `${BASE}/test-connection`, payload: { routeId: 'cebd-in-no' } },
          'administration',
        );
        expect(tested.json()).toMatchObject({ ok: true });
      } finally {
        await server.close();
      }
      const keys = await t.allAreas.query(`SELECT name FROM identity_secret WHERE name = 'interface_credentials_key'`);
      expect(keys).toEqual([]);
    } finally {
      await t.close();
    }
  });
});

describe('INTERFACE_ALLOWED_HOSTS', () => {
  let t: TestApp;
  let server: TestSftpServer;
  const call = (options: InjectOptions) => t.callAs(ADMIN, options, 'administration');
  beforeAll(async () => {
    t = await createTestApp({ config: { interfaceAllowedHosts: parseAllowedHosts('*.example.org, 127.0.0.0/8') } });
    server = await startSsh2SftpServer({ username: 'railwatt', password: PASSWORD });
  });
  afterAll(async () => {
    await server?.close();
    await t?.close();
  });
  const local = (over: Record<string, unknown> = {}) =>
    route({ hostname: server.hostname, port: server.port, path: '/data', ...over });

  it('saves a route only with a host the list admits, and says which field is wrong', async () => {
    for (const hostname of ['sftp.partner.example', 'example.org', 'evil-example.org', '10.0.0.1', 'localhost']) {
      const response = await call({ method: 'POST', url: `${BASE}/create-route`, payload: route({ hostname }) });
      expect({ hostname, status: response.statusCode }).toEqual({ hostname, status: 400 });
      expect(response.json().errors).toEqual([
        { code: 'invalid_input', field: 'hostname', message: INTERFACE_ROUTE_MESSAGES.hostNotAllowed },
      ]);
    }
    const named = await call({
      method: 'POST',
      url: `${BASE}/create-route`,
      payload: route({ routeId: 'named', hostname: 'SFTP.Partner.Example.ORG' }),
    });
    expect(named.statusCode, named.body).toBe(200);
    const moved = await call({
      method: 'POST',
      url: `${BASE}/update-route`,
      payload: route({ routeId: 'named', hostname: 'sftp.partner.example', credentials: undefined }),
    });
    expect(moved.statusCode).toBe(400);
    expect(moved.json().errors[0]).toMatchObject({ field: 'hostname' });
    const addressed = await call({ method: 'POST', url: `${BASE}/create-route`, payload: local() });
    expect(addressed.statusCode, addressed.body).toBe(200);
  });

  it('tests a connection only to an admitted host; a route saved before the list is refused, not used', async () => {
    const ok = await call({ method: 'POST', url: `${BASE}/test-connection`, payload: { routeId: 'cebd-in-no' } });
    expect(ok.json()).toMatchObject({ ok: true, outcome: 'ok' });
    // As if saved before INTERFACE_ALLOWED_HOSTS was set: a name the list does not admit, for the same server.
    await t.allAreas.query(`UPDATE interface_route SET hostname = 'localhost' WHERE route_id = 'cebd-in-no'`);
    const refused = await call({ method: 'POST', url: `${BASE}/test-connection`, payload: { routeId: 'cebd-in-no' } });
    expect(refused.statusCode).toBe(200);
    expect(refused.json()).toEqual({
      ok: false,
      outcome: 'host_not_allowed',
      message: expect.stringMatching(/^The host localhost:\d+ is not among the hosts this platform allows/),
    });
    // An unsaved form naming a host outside the list: the same answer, nothing connected to.
    const unsaved = await call({
      method: 'POST',
      url: `${BASE}/test-connection`,
      payload: { route: local({ routeId: 'unsaved', hostname: 'localhost', backupPath: null }) },
    });
    expect(unsaved.json()).toMatchObject({ ok: false, outcome: 'host_not_allowed' });
  });
});
