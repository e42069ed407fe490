import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, field, launch, signedIn as signedInTo } from './browser.js';

/*
 * Issue 3's journeys, in the Belgium area of the demo data: the demo vehicle keeper belongs to
 * "Akiem Belgium SA"; "Railpool Belgium" is another keeper there; "HLE 18" is a seeded type.
 */
const OWN = 'Akiem Belgium SA';
const OTHER = 'Railpool Belgium';
const TYPE = 'HLE 18';
const stamp = Date.now().toString().slice(-5);
/** An EVN from 11 digits and their UIC check digit (weights 2,1,2,... from the left), as the contract demands. */
const withCheckDigit = (eleven: string): string => {
  let sum = 0;
  for (let i = 0; i < eleven.length; i++) {
    const p = Number(eleven[i]) * (i % 2 === 0 ? 2 : 1);
    sum += p > 9 ? p - 9 : p;
  }
  return `${eleven}${(10 - (sum % 10)) % 10}`;
};
const EVN = withCheckDigit(`918809${stamp}`);

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const signedIn = (user: string, area: string): Promise<Page> =>
  signedInTo(browser, user, area, { acceptDownloads: true });

/** Types a dd.MM.yyyy date and closes the calendar so it does not cover the next field. */
async function typeDate(page: Page, label: string, value: string): Promise<void> {
  await field(page, label).fill(value);
  await page.keyboard.press('Escape');
  await field(page, label).blur();
}

async function choose(page: Page, label: string, option: string): Promise<void> {
  await field(page, label).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** The import screen opens its upload dialog on arrival; reopen it if it was closed. */
async function openUpload(page: Page): Promise<void> {
  await page.getByRole('heading', { level: 1 }).waitFor();
  const panel = page.getByTestId('upload-panel');
  try {
    await panel.waitFor({ timeout: 5_000 });
  } catch {
    await page.getByRole('button', { name: 'Upload files' }).click();
    await panel.waitFor();
  }
}

async function searchEvn(page: Page, evn: string): Promise<void> {
  await page.goto(`${baseUrl()}/fleet/overview?mode=ALL_READ_ONLY&evn=${evn}`);
  await page.getByTestId('fleet-table').waitFor();
}

describe('fleet', () => {
  let uuid = '';

  it('a vehicle keeper registers a traction unit with a consumption point', async () => {
    const page = await signedIn('vehicle-keeper', 'Belgium');
    await page.goto(`${baseUrl()}/fleet/registration`);
    await page.getByRole('heading', { level: 1, name: 'Register traction unit' }).waitFor();
    await field(page, 'Name').fill(`E2E HLE ${stamp}`);
    await field(page, 'EVN').fill(EVN);
    await choose(page, 'Owner', OWN);
    await typeDate(page, 'Valid from', '01.01.2020');
    await choose(page, 'Type', TYPE);
    // The form starts with one consumption point row.
    await field(page, 'NVR').fill('BE');
    await field(page, 'VKM').fill('AKBE');
    await field(page, 'EMS id').fill('EMS1');
    await field(page, 'Channels').fill('2');
    await expect.poll(() => page.getByTestId('cp-cpid').textContent()).toContain(`BE_AKBE_${EVN}_EMS1`);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => new URL(page.url()).pathname, { timeout: 15_000 }).toBe('/fleet/overview');

    await searchEvn(page, EVN);
    const row = page.getByTestId('fleet-row').filter({ hasText: EVN });
    await expect.poll(() => row.count()).toBe(1);
    const href = await row.getByRole('link', { name: 'History' }).getAttribute('href');
    uuid = new URL(href ?? '', baseUrl()).searchParams.get('uuid') ?? '';
    expect(uuid).toMatch(/^[0-9a-f-]{36}$/);
    await page.context().close();
  });

  it('an area responsible changes the owner from a date and the history shows two segments', async () => {
    expect(uuid).not.toBe('');
    const page = await signedIn('settlement-area-responsible', 'Belgium');
    await page.goto(`${baseUrl()}/fleet/registration?uuid=${uuid}`);
    await page.getByRole('heading', { level: 1, name: 'Edit traction unit' }).waitFor();
    await expect.poll(() => field(page, 'EVN').inputValue()).toBe(EVN);
    await choose(page, 'Owner', OTHER);
    await typeDate(page, 'Valid from', '01.06.2024');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => new URL(page.url()).pathname, { timeout: 15_000 }).toBe('/fleet/overview');

    await page.goto(`${baseUrl()}/fleet/segmentshistory?uuid=${uuid}&type=tractionunit`);
    const table = page.getByTestId('segments-table');
    await table.waitFor();
    const current = table.locator('tbody tr').filter({ hasNotText: 'replaced' });
    await expect.poll(() => current.count()).toBe(2);
    // Owner names come from the organisations lookup, which may answer after the versions.
    for (const expected of [OWN, OTHER, '01.06.2024']) {
      await expect.poll(() => table.textContent()).toContain(expected);
    }
    await page.context().close();
  });

  it('an area responsible sets the unit inactive from a date with a comment and the history shows it', async () => {
    expect(uuid).not.toBe('');
    const page = await signedIn('settlement-area-responsible', 'Belgium');
    await page.goto(`${baseUrl()}/fleet/overview?mode=OWN_READ_WRITE&evn=${EVN}`);
    const row = page.getByTestId('fleet-row').filter({ hasText: EVN });
    await row.waitFor();
    await row.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Set status' }).click();
    await page.getByRole('menuitem', { name: 'Set inactive' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await page.getByTestId('set-status-from').fill('01.01.2025');
    await page.keyboard.press('Tab');
    await dialog.getByRole('textbox', { name: 'Comment' }).fill(`taken out of service ${stamp}`);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByText('success change').count(), { timeout: 15_000 }).toBeGreaterThan(0);

    // An empty "Valid to" is open-ended: the overview shows the unit inactive, no ACTIVE tail at 2070.
    await searchEvn(page, EVN);
    const status = page.getByTestId('fleet-row').filter({ hasText: EVN }).getByTestId('fleet-status');
    await expect.poll(() => status.textContent()).toBe('Inactive');

    await page.goto(`${baseUrl()}/fleet/segmentshistory?uuid=${uuid}&type=tractionunit`);
    const table = page.getByTestId('segments-table');
    await table.waitFor();
    const inactive = table.locator('tbody tr').filter({ hasNotText: 'replaced' }).filter({ hasText: 'INACTIVE' });
    await expect.poll(() => inactive.count()).toBe(1);
    expect(await inactive.textContent()).toContain(`taken out of service ${stamp}`);
    expect(await inactive.textContent()).toContain('01.01.2025');
    await page.context().close();
  });

  it('imports a 500-row workbook with one bad row: nothing is stored and the error names the row', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('TractionUnit');
    sheet.addRow(['name', 'validFrom', 'validTo', 'state', 'evn', 'description', 'owner', 'tractionUnitTypeRef']);
    const evnOf = (i: number) => withCheckDigit(`918808${String(i).padStart(5, '0')}`);
    for (let i = 1; i <= 500; i++) {
      const evn = i === 250 ? '12345' : evnOf(i);
      sheet.addRow([`Import ${stamp} ${i}`, '2024-01-01', '2070-01-01', 'ACTIVE', evn, `Bulk ${i}`, OWN, TYPE]);
    }
    const buffer = Buffer.from(await workbook.xlsx.writeBuffer());

    const page = await signedIn('vehicle-keeper', 'Belgium');
    await page.goto(`${baseUrl()}/fleet/import`);
    await openUpload(page);
    await page.getByTestId('upload-input').setInputFiles({
      name: 'fleet-500.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer,
    });
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await expect
      .poll(() => page.getByTestId('upload-file-status').getAttribute('data-status'), { timeout: 30_000 })
      .toBe('failed');
    // Row 251 of the sheet holds item 250 (row 1 is the header).
    await expect.poll(() => page.getByTestId('upload-dialog').textContent()).toMatch(/Row 251, column evn/);

    await searchEvn(page, evnOf(1));
    await expect.poll(() => page.getByText('No traction units match the search').count()).toBe(1);
    await page.context().close();
  });

  it('exports selected traction units and imports the file again without changing anything', async () => {
    const page = await signedIn('vehicle-keeper', 'Belgium');
    await page.goto(`${baseUrl()}/fleet/overview?mode=OWN_READ_WRITE`);
    await page.getByTestId('fleet-row').first().waitFor();
    await page.getByRole('button', { name: 'Select all' }).click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export', exact: true }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('exportedentities.xlsx');
    const bytes = readFileSync((await download.path()) ?? '');

    const firstEvn = (await page.getByTestId('fleet-row').first().locator('td').nth(2).textContent())?.trim() ?? '';
    expect(firstEvn).toMatch(/^\d{12}$/);

    await page.goto(`${baseUrl()}/fleet/import`);
    await openUpload(page);
    await page.getByTestId('upload-input').setInputFiles({
      name: 'exportedentities.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: bytes,
    });
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await expect
      .poll(() => page.getByTestId('upload-file-status').getAttribute('data-status'), { timeout: 30_000 })
      .toBe('finished');

    await searchEvn(page, firstEvn);
    await expect.poll(() => page.getByTestId('fleet-row').filter({ hasText: firstEvn }).count()).toBe(1);
    await page.context().close();
  });
});
