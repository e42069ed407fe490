import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, field, launch, signIn } from './browser.js';

/*
 * Issue 7 item 3 (users): the erex-administrator lands on user registration in the administration
 * area, registers a user in Norway with two organisation relations (product.md §5) and an initial
 * password, and that user signs in through the login form and sees the app with their name.
 * "Vy Tog AS" and "Bane NOR SF" are Norway organisations of the demo data.
 */
const stamp = Date.now().toString().slice(-6);
const USERNAME = `journey.${stamp}`;
const PASSWORD = `Journey-${stamp}-pw`;
const FIRST = 'Ingrid';
const LAST = `Journey${stamp}`;

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

async function pick(page: Page, label: string, options: string[]): Promise<void> {
  await field(page, label).click();
  for (const option of options) await page.getByRole('option', { name: option, exact: true }).click();
  await page.keyboard.press('Escape');
}

describe('users in the Administration section', () => {
  it('the administrator registers a user with two organisation relations and a password, who then signs in', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, 'erex-administrator');

    // Signed in, the administration area (no dashboard) lands a user administrator on the area's users,
    // not on an empty registration form (issue 18, web redirects.ts HOME_LANDINGS).
    await expect.poll(() => page.getByTestId('area-selector').inputValue()).toBe('Administration');
    await expect.poll(() => new URL(page.url()).pathname).toBe('/administration/user/overview');
    await page.getByRole('heading', { name: 'User overview' }).waitFor();
    // The sent mail (issue 20 item 5) is one click away in the side menu (axe checks it on the way).
    await page.getByRole('link', { name: 'Sent mail' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/administration/sentmail');
    await page.getByRole('heading', { name: 'Sent mail' }).waitFor();

    await page.getByTestId('area-selector').click();
    await page.getByRole('option', { name: 'Norway', exact: true }).click();
    await expect.poll(() => page.getByTestId('area-selector').inputValue()).toBe('Norway');
    await page.goto(`${baseUrl()}/administration/user/registration`);
    await page.getByRole('heading', { name: 'User registration' }).waitFor({ timeout: 30_000 });

    await field(page, 'Username').fill(USERNAME);
    await field(page, 'First name').fill(FIRST);
    await field(page, 'Last name').fill(LAST);
    await field(page, 'E-mail').fill(`${USERNAME}@example.org`);
    await field(page, 'Title').fill('Planner');
    await pick(page, 'Market functions', ['Consumer']);
    await pick(page, 'Organisations', ['Vy Tog AS']);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);

    // One organisation relation is refused in a settlement area.
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saving a settlement-area user needs at least two organisation relations').waitFor();

    await pick(page, 'Organisations', ['Bane NOR SF']);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => new URL(page.url()).pathname, { timeout: 30_000 }).toBe('/administration/user/overview');
    await page.getByTestId('user-row').filter({ hasText: USERNAME }).waitFor({ timeout: 30_000 });

    await page.getByTestId('logout').click();
    await page.waitForSelector('#kc-login', { timeout: 30_000 });
    await page.goto(baseUrl());
    await page.waitForSelector('#username', { timeout: 30_000 });
    await page.fill('#username', USERNAME);
    await page.fill('#password', PASSWORD);
    await page.click('#kc-login');
    await page.waitForSelector('[data-testid="user-display-name"]', { timeout: 30_000 });
    await expect.poll(() => page.getByTestId('user-display-name').textContent()).toContain(`${FIRST} ${LAST}`);
    await expect.poll(() => page.getByTestId('area-selector').inputValue()).toBe('Norway');
    await context.close();
  }, 180_000);

  it('the administrator registers an organisation, exports it, imports the file back and is refused a bad service account', async () => {
    const ORG = `Journey Rail ${stamp}`;
    const context = await browser.newContext({ acceptDownloads: true });
    const page = await context.newPage();
    await signIn(page, 'erex-administrator');
    await page.getByTestId('area-selector').click();
    await page.getByRole('option', { name: 'Norway', exact: true }).click();
    await expect.poll(() => page.getByTestId('area-selector').inputValue()).toBe('Norway');
    await page.goto(`${baseUrl()}/administration/organisation/registration`);
    await page.getByRole('heading', { name: 'Organisation registration' }).waitFor({ timeout: 30_000 });

    await field(page, 'Name').fill(ORG);
    await field(page, 'Organisation id').fill(`JR${stamp}`);
    // product.md §5: at least one organisation type and one notification e-mail.
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('At least one organisation type is required').waitFor();
    await page.getByText('At least one notification e-mail is required').waitFor();
    await pick(page, 'Organisation types', ['Railway undertaking']);
    await field(page, 'Notification e-mails').fill(`ops@jr${stamp}.example; night@jr${stamp}.example`);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(() => new URL(page.url()).pathname, { timeout: 30_000 })
      .toBe('/administration/organisation/overview');

    await page.getByRole('textbox', { name: 'Search' }).fill(ORG);
    await page.getByRole('button', { name: 'Search' }).click();
    const row = page.getByTestId('organisation-row').filter({ hasText: ORG });
    await row.waitFor({ timeout: 30_000 });
    await expect.poll(() => page.getByTestId('organisation-row').count()).toBe(1);

    await page.getByRole('button', { name: 'Export', exact: true }).click();
    await page.getByText('No entities selected').waitFor();
    await row.getByRole('checkbox').check();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export', exact: true }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('exportedorganisations.xlsx');
    const bytes = readFileSync((await download.path()) ?? '');

    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByTestId('upload-input').setInputFiles({
      name: 'exportedorganisations.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: bytes,
    });
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await expect
      .poll(() => page.getByTestId('upload-file-status').getAttribute('data-status'), { timeout: 30_000 })
      .toBe('finished');
    await page.keyboard.press('Escape');

    await row.getByRole('button', { name: 'Service account' }).click();
    await page.getByTestId('upload-input').setInputFiles({
      name: 'service-account.json',
      mimeType: 'application/json',
      buffer: Buffer.from('{ "username": '),
    });
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByTestId('upload-dialog').getByText('The file content is not valid JSON').waitFor();
    await context.close();
  }, 180_000);
});
