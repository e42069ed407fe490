import { readFile } from 'node:fs/promises';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cebdXml } from '../../apps/server/src/formats/cebd/generate.js';
import { writeUtilts } from '../../apps/server/src/formats/utilts/utilts-writer.js';
import { baseUrl, field, launch, signedIn } from './browser.js';

/*
 * Issue 8 items 8 and 10: the time-series intake in the browser. The settlement-area responsible of
 * Norway uploads from the data log a CEBD file for a seeded consumption point (imported by its job)
 * and a UTILTS file for a supply metering point that does not exist yet (refused by its job), finds
 * both entries in the data log, downloads the refused file, registers the metering point on the
 * infrastructure registration screen; the administrator then re-imports the file from the data log.
 */
const AREA = 'Norway';
const USER = 'settlement-area-responsible';
/** Re-import is the erex-administrator's alone (product.md §6). */
const ADMIN = 'erex-administrator';
const stamp = Date.now().toString().slice(-6);
const CEBD_FILE = `intake-${stamp}-cebd.xml`;
const UTILTS_FILE = `intake-${stamp}-supply.edi`;
const BROKEN_FILE = `intake-${stamp}-broken.xml`;
const POINT = `SMP-E2E-${stamp}`;
// Seeded in Norway (apps/server/src/seed/infrastructure.ts): the substation type and a grid area of NO1.
const POINT_TYPE = 'Converter station';
const GRID = 'Elvia Viken';
const JOB_TIMEOUT = 60_000;

let browser: Browser;
const foreign: string[] = [];
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

/** Notes every request that leaves the origin (none may). */
function watchForeign(page: Page): void {
  const origin = new URL(baseUrl()).origin;
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(`${origin}/`) && !url.startsWith('data:') && !url.startsWith('blob:')) foreign.push(url);
  });
}

/** GET an /api path from the signed-in page with its token and area (what the web client sends). */
async function apiGet<T>(page: Page, path: string): Promise<T> {
  return page.evaluate(async (url) => {
    // The e2e project has no DOM types: the two storages as far as this needs them.
    type Store = { getItem(key: string): string | null } & Record<string, unknown>;
    const { sessionStorage: session, localStorage: local } = globalThis as unknown as {
      sessionStorage: Store;
      localStorage: Store;
    };
    const key = Object.keys(session).find((k) => k.startsWith('oidc.user:'))!;
    const token = (JSON.parse(session.getItem(key)!) as { access_token: string }).access_token;
    const tenant = session.getItem('selectedSettlementArea') ?? local.getItem('selectedSettlementArea');
    const res = await fetch(url, { headers: { authorization: `Bearer ${token}`, 'current-tenant-id': tenant! } });
    if (!res.ok) throw new Error(`${url}: ${res.status}`);
    return (await res.json()) as T;
  }, path) as Promise<T>;
}

/** A CPID of a seeded Norwegian consumption point, read through the API as the user. */
async function norwegianCpid(page: Page): Promise<string> {
  const points = await apiGet<unknown[]>(page, '/api/domain/consumptionpoint/all');
  // The CPID is an attribute of the entity's segments.
  const cpids = [...JSON.stringify(points).matchAll(/"cpid":"([^"]+)"/g)].map((m) => m[1]!);
  expect(cpids.length).toBeGreaterThan(0);
  return cpids.sort()[0]!;
}

function cebdFile(cpid: string): Buffer {
  const start = `${new Date(Date.now() - 86_400_000).toISOString().slice(0, 11)}00:00:00Z`;
  const route = [
    { lat: 59.91, lon: 10.75 },
    { lat: 60.39, lon: 5.32 },
  ];
  return Buffer.from([...cebdXml({ seed: Number(stamp), points: [{ cpid, route, start, periods: 12 }] })].join(''));
}

const utiltsFile = (): Buffer =>
  Buffer.from(
    writeUtilts({
      sender: '7080000000001',
      receiver: '7080000000002',
      reference: `E2E${stamp}`,
      created: new Date().toISOString().slice(0, 19) + 'Z',
      series: [
        {
          meteringPoint: POINT,
          start: `${new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 11)}00:00:00Z`,
          resolution: 'PT1H',
          values: [100, 110, 120],
        },
      ],
    }),
  );

// The modal's root carries its colour (data-color) but has no box of its own: visibility is the panel's.
const dialog = (page: Page) => page.getByTestId('upload-dialog');
const panel = (page: Page) => page.getByTestId('upload-panel');

/** Opens the data log's upload dialog (unless open), chooses one file and uploads it. */
async function upload(page: Page, name: string, buffer: Buffer, mimeType: string): Promise<void> {
  if (!(await panel(page).isVisible())) {
    await page.getByRole('button', { name: 'Upload time series' }).click();
    await panel(page).waitFor();
  }
  await dialog(page).getByTestId('upload-input').setInputFiles({ name, mimeType, buffer });
  await expect.poll(() => dialog(page).getByTestId('upload-file-name').allTextContents()).toEqual([name]);
  await dialog(page).getByRole('button', { name: 'Upload', exact: true }).click();
}

async function closeDialog(page: Page): Promise<void> {
  await page.keyboard.press('Escape');
  await panel(page).waitFor({ state: 'hidden' });
}

/** The data log filtered to this journey's files (the filter lives in the URL). */
async function openDataLog(page: Page): Promise<void> {
  await page.goto(`${baseUrl()}/monitor/datalog?fileName=intake-${stamp}`);
  await page.getByTestId('datalog-table').waitFor();
}

const rows = (page: Page, fileName: string): Locator => page.getByTestId('datalog-row').filter({ hasText: fileName });
const statusesOf = async (page: Page, fileName: string): Promise<string[]> =>
  (await rows(page, fileName).getByTestId('datalog-status').allTextContents()).sort();

/** Reloads the data log until the rows of `fileName` have the statuses wanted (a job writes them). */
async function waitForStatuses(page: Page, fileName: string, wanted: string[]): Promise<void> {
  await expect
    .poll(
      async () => {
        await openDataLog(page);
        await page.getByTestId('datalog-row').first().waitFor({ timeout: 10_000 });
        return statusesOf(page, fileName);
      },
      { timeout: JOB_TIMEOUT, interval: 1_000 },
    )
    .toEqual([...wanted].sort());
}

async function choose(page: Page, label: string, option: string): Promise<void> {
  await field(page, label).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

describe('time-series intake', () => {
  it('uploads CEBD and UTILTS files from the data log, follows their jobs, and re-imports the refused file once its metering point exists', async () => {
    const started = Date.now();
    const page = await signedIn(browser, USER, AREA, {
      acceptDownloads: true,
      viewport: { width: 1400, height: 1000 },
      onPage: watchForeign,
    });
    const cebd = cebdFile(await norwegianCpid(page));
    const utilts = utiltsFile();

    // 1. CEBD from the data log: accepted, its job succeeds, the dialog turns green.
    await openDataLog(page);
    await upload(page, CEBD_FILE, cebd, 'application/xml');
    const fileStatus = dialog(page).getByTestId('upload-file-status');
    await expect.poll(() => fileStatus.getAttribute('data-status'), { timeout: 30_000 }).toBe('finished_async');
    expect(await fileStatus.textContent()).toBe('Accepted');
    const job = dialog(page).getByTestId('job-progress');
    await expect.poll(() => job.getAttribute('data-status'), { timeout: JOB_TIMEOUT }).toBe('success');
    expect(await dialog(page).getByTestId('job-message').textContent()).toMatch(/^Imported 48 values of 4 time series/);
    await expect.poll(() => dialog(page).getAttribute('data-color')).toBe('green');
    expect(await fileStatus.getAttribute('data-status')).toBe('finished_async');

    // 2. UTILTS for a metering point that does not exist: accepted, then refused by its job (red).
    await upload(page, UTILTS_FILE, utilts, 'application/edifact');
    await expect.poll(() => fileStatus.getAttribute('data-status'), { timeout: 30_000 }).toBe('finished_async');
    await expect.poll(() => job.getAttribute('data-status'), { timeout: JOB_TIMEOUT }).toBe('failure');
    expect(await dialog(page).getByTestId('job-message').textContent()).toContain(`Unknown metering point ${POINT}`);
    await expect.poll(() => dialog(page).getAttribute('data-color')).toBe('red');
    expect(await fileStatus.getAttribute('data-status')).toBe('finished_async');
    // The list was refreshed when the jobs ended: both entries are there without a reload.
    await closeDialog(page);
    await expect.poll(() => statusesOf(page, CEBD_FILE), { timeout: 15_000 }).toEqual(['OK']);
    await expect.poll(() => statusesOf(page, UTILTS_FILE), { timeout: 15_000 }).toEqual(['Rejected']);

    // 3. A single file refused at upload time goes to the import error screen.
    // An .xml file goes to the CEBD import, which refuses at once what is not CEBD.
    await upload(page, BROKEN_FILE, Buffer.from('<trainRuns/>'), 'application/xml');
    const errorScreen = page.getByTestId('import-error-screen');
    await errorScreen.waitFor({ timeout: 30_000 });
    expect(await errorScreen.textContent()).toContain('Import failed');
    expect(await errorScreen.textContent()).toContain(`${BROKEN_FILE} is not a cebd file`);
    await panel(page).waitFor({ state: 'hidden' });

    // 4. The data log: CEBD OK with its four series, UTILTS REJECTED in red with the reason.
    await openDataLog(page);
    const cebdRow = rows(page, CEBD_FILE);
    await expect.poll(() => cebdRow.count(), { timeout: 15_000 }).toBe(1);
    expect(await cebdRow.textContent()).toContain('CEBD import');
    await cebdRow.getByRole('button', { name: 'Expand row' }).click();
    const series = page.getByTestId('datalog-time-series');
    await series.waitFor();
    expect(await series.locator('tbody tr').count()).toBe(4);
    // Each type as words (issue 18 item 3).
    for (const type of [
      'Active energy consumed (CEBD)',
      'Active energy regenerated (CEBD)',
      'Reactive energy consumed (CEBD)',
      'Reactive energy regenerated (CEBD)',
    ])
      expect(await series.textContent()).toContain(type);
    expect(await series.textContent()).not.toContain('cebd_active_energy_consumed');

    const rejected = rows(page, UTILTS_FILE);
    expect(await rejected.count()).toBe(1);
    expect(await rejected.textContent()).toContain('UTILTS import');
    expect(await rejected.textContent()).toContain(`Unknown metering point ${POINT}`);
    const badge = rejected.getByTestId('datalog-status');
    expect(await badge.textContent()).toBe('Rejected');
    expect(await badge.evaluate((el) => (el as unknown as { style: { cssText: string } }).style.cssText)).toContain(
      'red',
    );
    // The refused upload is in the log too.
    expect(await statusesOf(page, BROKEN_FILE)).toEqual(['Rejected']);

    // 5. The original UTILTS file comes back byte for byte.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      rejected.getByRole('button', { name: 'Download' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(UTILTS_FILE);
    expect(Buffer.compare(await readFile((await download.path())!), utilts)).toBe(0);

    // 6. The missing supply metering point, registered on the infrastructure screen.
    await page.goto(`${baseUrl()}/infrastructure/entity/registration/supplymeteringpoint`);
    await page.getByTestId('entity-form').waitFor();
    await field(page, 'Name').fill(POINT);
    await choose(page, 'Supply metering point type', POINT_TYPE);
    await choose(page, 'Grid area', GRID);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => new URL(page.url()).pathname, { timeout: 15_000 }).toBe('/infrastructure/entity/overview');

    // 7. Re-import is the administrator's (product.md §6): the responsible's row offers none.
    await openDataLog(page);
    await rows(page, UTILTS_FILE).getByRole('button', { name: 'Download' }).waitFor();
    expect(await rows(page, UTILTS_FILE).getByRole('button', { name: 'Re-import' }).count()).toBe(0);
    await page.context().close();

    // 8. The administrator re-imports from the data log: the original is RETRIED, a new entry of the same file is OK.
    const admin = await signedIn(browser, ADMIN, AREA, {
      viewport: { width: 1400, height: 1000 },
      onPage: watchForeign,
    });
    await openDataLog(admin);
    await rows(admin, UTILTS_FILE).getByRole('button', { name: 'Re-import' }).click();
    await admin.getByRole('button', { name: 'Yes' }).click();
    await admin.getByText('The file was re-imported').waitFor({ timeout: 15_000 });
    await waitForStatuses(admin, UTILTS_FILE, ['OK', 'Retried']);
    const again = rows(admin, UTILTS_FILE).filter({
      has: admin.getByTestId('datalog-status').getByText('OK', { exact: true }),
    });
    await again.getByRole('button', { name: 'Expand row' }).click();
    await expect.poll(() => admin.getByTestId('datalog-time-series').textContent()).toContain(POINT);
    // Nothing is left to re-import.
    expect(await rows(admin, UTILTS_FILE).getByRole('button', { name: 'Re-import' }).count()).toBe(0);

    expect(foreign).toEqual([]);
    console.info(`intake journey: ${((Date.now() - started) / 1000).toFixed(1)} s`);
    await admin.context().close();
  });
});
