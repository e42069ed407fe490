import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, baseUrl, field, launch, signIn } from './browser.js';

/*
 * Issue 7 item 3: the erex-administrator registers an SFTP interface route with a private key
 * against a real OpenSSH server this test starts (apps/server/src/test/sftp-servers.ts, the helper
 * the server tests use), tests the connection, which fills the route's host key with the one the
 * server presented (OpenSSH's own ssh-keygen -l reading), saves it pinned and finds the route in
 * the overview. Without /usr/sbin/sshd the ssh2 package's in-process SFTP server stands in, except
 * on CI (CI=true), where a missing sshd fails the journey.
 */

interface SftpTarget {
  hostname: string;
  port: number;
  username: string;
  path: string;
  close(): Promise<void>;
}
interface SftpServersModule {
  hasSshd(): boolean;
  startOpenSshServer(): Promise<
    SftpTarget & { protectedKey: { privateKey: string; passphrase: string }; hostKeyFingerprint: string }
  >;
  generateKeyPair(passphrase?: string): { privateKey: string; publicKey: string };
  startSsh2SftpServer(options: { username: string; publicKey?: string }): Promise<SftpTarget>;
}

const HELPER = resolve(__dirname, '../../apps/server/src/test/sftp-servers.ts');
const ROUTE_ID = `e2e-cebd-${Date.now().toString().slice(-6)}`;

let browser: Browser;
let server: SftpTarget;
let key: { privateKey: string; passphrase: string };
/** The server's host key as ssh-keygen -l prints it; undefined for the ssh2 stand-in (its key is made per run). */
let hostKey: string | undefined;

beforeAll(async () => {
  // Loaded by path: the helper belongs to the server's test code, not to this package's sources.
  const helper = (await import(pathToFileURL(HELPER).href)) as SftpServersModule;
  if (helper.hasSshd() || process.env.CI === 'true') {
    const sshd = await helper.startOpenSshServer();
    server = sshd;
    key = sshd.protectedKey;
    hostKey = sshd.hostKeyFingerprint;
  } else {
    console.warn('OpenSSH server (/usr/sbin/sshd) not installed: the journey uses the ssh2 SFTP server.');
    const pair = helper.generateKeyPair('e2e passphrase');
    server = await helper.startSsh2SftpServer({ username: 'railwatt', publicKey: pair.publicKey });
    key = { privateKey: pair.privateKey, passphrase: 'e2e passphrase' };
  }
  browser = await launch();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('interfaces', () => {
  it('the administrator registers an SFTP route with a private key, tests it, saves it with its host key pinned and finds it in the overview', async () => {
    expect(existsSync(HELPER)).toBe(true);
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, 'erex-administrator');
    if ((await page.getByTestId('area-selector').inputValue()) !== 'Administration') {
      await page.getByTestId('area-selector').click();
      await page.getByRole('option', { name: 'Administration', exact: true }).click();
      await expect.poll(() => page.getByTestId('area-selector').inputValue()).toBe('Administration');
    }
    await page.goto(`${baseUrl()}/administration/interface/registration`);
    await page.getByRole('heading', { level: 1, name: 'Interface registration' }).waitFor();

    await field(page, 'Route id').fill(ROUTE_ID);
    await field(page, 'Interface type').click();
    await page.getByRole('option', { name: 'CEBD', exact: true }).click();
    await field(page, 'Hostname').fill(server.hostname);
    await field(page, 'Port').fill(String(server.port));
    await field(page, 'Username').fill(server.username);
    await field(page, 'Path').fill(server.path);
    await page.getByText('Private key', { exact: true }).first().click();
    await field(page, 'Private key').fill(key.privateKey);
    await page.getByLabel('Passphrase').fill(key.passphrase);

    await page.getByRole('button', { name: 'Test connection' }).click();
    const result = page.getByTestId('test-connection-result');
    await result.waitFor({ timeout: 20_000 });
    expect(await result.textContent()).toContain('Connection succeeded');
    expect(await page.getByTestId('test-connection-entries').textContent()).toContain('cebd-001.xml');
    // The empty host key field took the key the server presented: the one OpenSSH reads from its key file.
    const presented = await page.getByTestId('test-connection-host-key').textContent();
    expect(presented).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
    if (hostKey) expect(presented).toBe(hostKey);
    expect(await page.getByTestId('hostKeyFingerprint').inputValue()).toBe(presented);
    await page.getByTestId('test-connection-host-key-filled').waitFor();

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect
      .poll(() => new URL(page.url()).pathname, { timeout: 15_000 })
      .toBe('/administration/interface/overview');
    const row = page.getByTestId('interface-row').filter({ hasText: ROUTE_ID });
    await row.waitFor();
    const text = await row.textContent();
    expect(text).toContain(server.hostname);
    expect(text).toContain(server.path);
    expect(text).toContain('Enabled');
    // Saved with the host key pinned.
    const saved = await api<{ hostKeyFingerprint: string | null }>(
      page,
      `/api/sftpintegration/interface-configuration/route-by-routeid?routeId=${ROUTE_ID}`,
    );
    expect(saved.hostKeyFingerprint).toBe(presented);

    // The saved route tests with its stored (encrypted) key too, and its server presents the pinned key.
    await row.getByRole('button', { name: 'Test connection' }).click();
    await expect
      .poll(() => page.getByTestId('test-connection-result').textContent(), { timeout: 20_000 })
      .toContain(`${ROUTE_ID}: Connection succeeded`);
    expect(await page.getByTestId('test-connection-host-key').textContent()).toBe(presented);
    // It had its key already: this test pinned nothing.
    expect(await page.getByTestId('test-connection-host-key-pinned').count()).toBe(0);

    // The information page names the pinned key with the route's connection.
    await page.goto(`${baseUrl()}/administration/interface/config/information`);
    const info = page.getByTestId('interface-information').getByRole('row').filter({ hasText: ROUTE_ID });
    await info.waitFor();
    expect(await info.getByTestId('interface-host-key').textContent()).toBe(presented);
    await context.close();
  });
});
