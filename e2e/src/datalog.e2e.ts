import ExcelJS from 'exceljs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, chooseArea, launch, signedIn } from './browser.js';

/*
 * Issue 8 items 6-8: the administrator imports a fleet workbook (Belgium demo data) that the import
 * refuses, and finds its entry in the settlement data log and, in master-data mode, in the
 * master-data data log, with the file to download.
 */
const stamp = Date.now().toString().slice(-6);
const FILE = `datalog-journey-${stamp}.xlsx`;

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

async function importRefusedWorkbook(page: Page): Promise<void> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('TractionUnit');
  sheet.addRow(['name', 'validFrom', 'validTo', 'state', 'evn', 'description', 'owner', 'tractionUnitTypeRef']);
  sheet.addRow([
    `Journey ${stamp}`,
    '2024-01-01',
    '2070-01-01',
    'ACTIVE',
    '12345',
    'bad evn',
    'Akiem Belgium SA',
    'HLE 18',
  ]);
  const buffer = Buffer.from(await workbook.xlsx.writeBuffer());
  await page.goto(`${baseUrl()}/fleet/import`);
  await page.getByRole('heading', { level: 1 }).waitFor();
  const panel = page.getByTestId('upload-panel');
  try {
    await panel.waitFor({ timeout: 5_000 });
  } catch {
    await page.getByRole('button', { name: 'Upload files' }).click();
    await panel.waitFor();
  }
  await page.getByTestId('upload-input').setInputFiles({
    name: FILE,
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer,
  });
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect
    .poll(() => page.getByTestId('upload-file-status').getAttribute('data-status'), { timeout: 30_000 })
    .toBe('failed');
}

describe('data log', () => {
  it('shows the administrator the entry of a refused fleet import, in both data logs, with its file', async () => {
    const page = await signedIn(browser, 'erex-administrator', 'Belgium', { acceptDownloads: true });
    await importRefusedWorkbook(page);

    await page.goto(`${baseUrl()}/monitor/datalog`);
    await page.getByLabel('File name', { exact: true }).fill(stamp);
    await page.getByRole('button', { name: 'Search' }).click();
    const row = page.getByTestId('datalog-row').filter({ hasText: FILE });
    await expect.poll(() => row.count(), { timeout: 30_000 }).toBe(1);
    expect(await row.getByTestId('datalog-status').textContent()).toBe('Rejected');
    expect(await row.textContent()).toContain('Excel master data import');
    expect(await row.textContent()).toMatch(/Row 2, column evn/);
    // An Excel import is never re-imported (calls.md §4); its file can be downloaded.
    expect(await row.getByRole('button', { name: 'Re-import' }).count()).toBe(0);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      row.getByRole('button', { name: 'Download' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(FILE);

    await chooseArea(page, 'Master Data');
    await page.goto(`${baseUrl()}/monitor/datalog`);
    const transfer = page.getByTestId('masterdata-datalog-row').filter({ hasText: FILE });
    await expect.poll(() => transfer.count(), { timeout: 30_000 }).toBe(1);
    expect(await transfer.textContent()).toContain('Master data transfer in');
    expect(await transfer.textContent()).toContain('Belgium');
    await page.context().close();
  });
});
