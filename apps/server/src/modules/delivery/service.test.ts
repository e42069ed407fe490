import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deliveryDestinationSchema, storedDeliveryDestinationSchema } from '@railwatt/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../config.js';
import { startFtpServer, startHttpServer, type TestFtpServer } from '../../test/delivery-peers.js';
import { parseAllowedHosts } from '../interface/allowed-hosts.js';
import type { Executor } from '../domain/sql.js';
import { decryptDestinationPassword, destinationView, storableDestination } from './credentials.js';
import {
  deliverFile,
  deliverToAll,
  deliverySettings,
  resolveDestination,
  type DeliverySettings,
  type DeliveryTarget,
} from './service.js';

/**
 * The service over the adapters: a destination as a schedule stores it (password encrypted) is
 * resolved and delivered to a real FTP server; names and addresses that cannot be delivered to are
 * refused before anything is connected to.
 */

const key = randomBytes(32);
const OWNER = 'scheduled_report:7d0e4b8e-3c4f-4a57-9d5e-2f1b8f0c0a11';
const bytes = randomBytes(10_000);
const file = { fileName: 'energymarket.csv', contentType: 'text/csv', content: bytes };
const noDatabase = {} as Executor;
const ctx = { db: noDatabase, tenant: '00000000-0000-4000-8000-000000000000', username: null };
const message = { subject: 'energymarket', text: 'Attached.' };

describe('a destination as a schedule stores it', () => {
  it('encrypts the password for its owner, answers without it, and decrypts it for the owner only', () => {
    const entered = deliveryDestinationSchema.parse({
      destinationType: 'ftp',
      protocol: 'FTPS',
      host: 'ftp.example.org',
      remoteDirectory: 'reports/out',
      username: 'rw',
      password: 'Tr0ub4dor&3',
    });
    const stored = storableDestination(key, OWNER, entered);
    expect(stored).toEqual({
      destinationType: 'ftp',
      protocol: 'FTPS',
      host: 'ftp.example.org',
      port: 21,
      remoteDirectory: '/reports/out',
      username: 'rw',
      passwordEncrypted: expect.stringMatching(/^v1\./),
    });
    expect(JSON.stringify(stored)).not.toContain('Tr0ub4dor');
    // What the schedules table would hold round-trips through the stored schema.
    expect(storedDeliveryDestinationSchema.parse(JSON.parse(JSON.stringify(stored)))).toEqual(stored);
    expect(destinationView(stored)).toEqual({
      destinationType: 'ftp',
      protocol: 'FTPS',
      host: 'ftp.example.org',
      port: 21,
      remoteDirectory: '/reports/out',
      username: 'rw',
      hasPassword: true,
    });
    if (stored.destinationType !== 'ftp') throw new Error('ftp expected');
    expect(decryptDestinationPassword(key, OWNER, stored.passwordEncrypted)).toBe('Tr0ub4dor&3');
    expect(() => decryptDestinationPassword(key, 'scheduled_report:another', stored.passwordEncrypted)).toThrow();
  });

  it('keeps a web service without a password without one, and "my email" as it is', () => {
    const web = storableDestination(key, OWNER, {
      destinationType: 'webservice',
      webserviceUri: 'https://erp.example.org/import',
    });
    expect(web).toEqual({ destinationType: 'webservice', webserviceUri: 'https://erp.example.org/import' });
    expect(destinationView(web)).toEqual({ ...web, hasPassword: false });
    expect(storableDestination(key, OWNER, { destinationType: 'my email' })).toEqual({ destinationType: 'my email' });
  });

  it('resolves "my email" to the user’s address, and says when there is none', () => {
    expect(
      resolveDestination({ destinationType: 'my email' }, { key, owner: OWNER, myEmail: 'a@b.org', message }),
    ).toEqual({ ok: true, target: { destinationType: 'my email', to: ['a@b.org'], ...message } });
    expect(resolveDestination({ destinationType: 'my email' }, { key, owner: OWNER, myEmail: null, message })).toEqual({
      ok: false,
      outcome: {
        ok: false,
        destinationType: 'my email',
        reason: 'The user has no e-mail address to send the report to',
        attempts: 0,
      },
    });
  });

  it('answers a failed outcome, not an error, for a password that no longer decrypts', () => {
    const stored = storableDestination(key, OWNER, {
      destinationType: 'sftp',
      host: 'sftp.example.org',
      port: 22,
      remoteDirectory: '/in',
      username: 'rw',
      password: 'pw',
    });
    const resolved = resolveDestination(stored, { key: randomBytes(32), owner: OWNER, myEmail: null, message });
    expect(resolved).toMatchObject({
      ok: false,
      outcome: {
        ok: false,
        destinationType: 'sftp',
        reason: expect.stringMatching(/could not be read .*: enter it again$/),
      },
    });
    expect(resolveDestination(stored, { key, owner: OWNER, myEmail: null, message })).toMatchObject({
      ok: true,
      target: { destinationType: 'sftp', host: 'sftp.example.org', credentials: { password: 'pw' } },
    });
  });
});

describe('deliverFile', () => {
  let server: TestFtpServer;
  let settings: DeliverySettings;
  beforeAll(async () => {
    server = await startFtpServer({ user: 'schedule', pass: 'from the schedule' });
    settings = { ...deliverySettings(testConfig()), allowedHosts: parseAllowedHosts('127.0.0.1') };
  });
  afterAll(async () => server?.close());

  it('delivers to a stored destination once resolved: the bytes arrive at the FTP server', async () => {
    const stored = storableDestination(
      key,
      OWNER,
      deliveryDestinationSchema.parse({
        destinationType: 'ftp',
        protocol: 'FTP',
        host: '127.0.0.1',
        port: server.port,
        remoteDirectory: '/scheduled',
        username: 'schedule',
        password: 'from the schedule',
      }),
    );
    const resolved = resolveDestination(stored, { key, owner: OWNER, myEmail: null, message });
    if (!resolved.ok) throw new Error(resolved.outcome.ok ? '' : resolved.outcome.reason);
    const outcome = await deliverFile(settings, ctx, resolved.target, file);
    expect(outcome).toMatchObject({ ok: true, location: `ftp://127.0.0.1:${server.port}/scheduled/energymarket.csv` });
    expect(readFileSync(join(server.root, 'scheduled/energymarket.csv')).equals(bytes)).toBe(true);
  });

  it('refuses a file name that is a path, and an address that is not one, before connecting', async () => {
    const logins = server.logins;
    const ftp: DeliveryTarget = {
      destinationType: 'ftp',
      protocol: 'FTP',
      host: '127.0.0.1',
      port: server.port,
      remoteDirectory: '/x',
      username: 'schedule',
      password: 'from the schedule',
    };
    for (const fileName of ['../escape.csv', 'a/b.csv', '..', 'tab\there.csv', '']) {
      expect(await deliverFile(settings, ctx, ftp, { ...file, fileName })).toMatchObject({ ok: false, attempts: 0 });
    }
    expect(server.logins).toBe(logins);
    expect(
      await deliverFile(settings, ctx, { destinationType: 'my email', to: ['not an address'], ...message }, file),
    ).toEqual({ ok: false, destinationType: 'my email', reason: 'Not an e-mail address: not an address', attempts: 0 });
  });

  it('delivers to several destinations in turn, one outcome each, whatever the others did', async () => {
    const web = await startHttpServer((_q, response) => response.writeHead(204).end());
    try {
      const outcomes = await deliverToAll(
        { ...settings, webservice: { allowPlainHttp: true, attempts: 1 } },
        ctx,
        [
          { destinationType: 'webservice', webserviceUri: 'https://203.0.113.7/in' },
          { destinationType: 'webservice', webserviceUri: `http://127.0.0.1:${web.port}/in` },
        ],
        file,
      );
      expect(outcomes.map((o) => o.ok)).toEqual([false, true]);
      expect(web.received.map((r) => r.body.equals(bytes))).toEqual([true]);
    } finally {
      await web.close();
    }
  });
});
