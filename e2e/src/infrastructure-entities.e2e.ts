import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, field, launch, signedIn as signedInTo } from './browser.js';

/*
 * Issue 7's entity screens in the Norway area of the demo data ("NO1 grid" is a seeded grid area):
 * an area responsible registers a supply metering point type and a supply metering point with a
 * location (a bad one refused with the spec's message), finds it in the entity overview, and
 * registers a price category in administration.
 */
const AREA = 'Norway';
// A demo grid area of NO1 around Oslo (apps/server/src/seed/infrastructure.ts GRID_AREA_NAMES).
const GRID = 'Elvia Viken';
const stamp = Date.now().toString().slice(-5);
const TYPE = `E2E Substation ${stamp}`;
const POINT = `E2E-SUB-${stamp}`;
const PRICE_CATEGORY = `E2E Peak ${stamp}`;
const TAX_CATEGORY = `E2E Tax ${stamp}`;
// The demo's one tax area of Norway (seed/infrastructure.ts), which every demo grid area lies in.
const TAX_AREA = 'Norway tax area';
const LOCATION_MESSAGE = 'The value must be a geographic location (e.g. "1,1")';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const signedIn = (user: string, area: string): Promise<Page> => signedInTo(browser, user, area);

async function choose(page: Page, label: string, option: string): Promise<void> {
  await field(page, label).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

async function save(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Save', exact: true }).click();
}

describe('infrastructure and administration entities', () => {
  it('an area responsible registers a supply metering point with a location and finds it in the overview', async () => {
    const page = await signedIn('settlement-area-responsible', AREA);

    await page.goto(`${baseUrl()}/infrastructure/entity/registration/supplymeteringpointtype`);
    await page.getByTestId('entity-form').waitFor();
    await field(page, 'Name').fill(TYPE);
    await save(page);
    await expect
      .poll(() => new URL(page.url()).searchParams.get('kind'), { timeout: 15_000 })
      .toBe('supplymeteringpointtype');

    await page.goto(`${baseUrl()}/infrastructure/entity/registration/supplymeteringpoint`);
    await page.getByTestId('entity-form').waitFor();
    await field(page, 'Name').fill(POINT);
    await choose(page, 'Supply metering point type', TYPE);
    await choose(page, 'Grid area', GRID);
    await field(page, 'Location').fill('95,10');
    await save(page);
    await expect.poll(() => page.getByText(LOCATION_MESSAGE).count()).toBe(1);
    expect(new URL(page.url()).pathname).toBe('/infrastructure/entity/registration/supplymeteringpoint');
    // Only the erex-administrator sees the for_erex_admin_only switch.
    expect(await page.getByLabel('Excluded from settlement').count()).toBe(0);

    await field(page, 'Location').fill('59.91,10.75');
    await save(page);
    await expect.poll(() => new URL(page.url()).pathname, { timeout: 15_000 }).toBe('/infrastructure/entity/overview');
    const row = page.getByTestId('entity-row').filter({ hasText: POINT });
    await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(1);
    await expect.poll(() => row.textContent()).toContain(GRID);
    await expect.poll(() => row.textContent()).toContain('59.91,10.75');
    await expect.poll(() => row.textContent()).toContain(TYPE);
    // Kinds with a location are also shown on the map.
    await page.getByTestId('entity-map').waitFor({ timeout: 15_000 });
    await page.context().close();
  });

  it('an area responsible registers a price category in administration', async () => {
    const page = await signedIn('settlement-area-responsible', AREA);
    await page.goto(`${baseUrl()}/administration/entities/registration`);
    await choose(page, 'Entity type', 'Price category');
    await expect.poll(() => new URL(page.url()).pathname).toBe('/administration/entities/registration/pricecategory');
    await page.getByTestId('entity-form').waitFor();
    await field(page, 'Name').fill(PRICE_CATEGORY);
    await field(page, 'Description').fill('Weekday peak hours');
    await save(page);
    await expect
      .poll(() => new URL(page.url()).pathname, { timeout: 15_000 })
      .toBe('/administration/entities/overview');
    expect(new URL(page.url()).searchParams.get('kind')).toBe('pricecategory');
    await expect.poll(() => page.getByTestId('entity-row').filter({ hasText: PRICE_CATEGORY }).count()).toBe(1);
    await page.context().close();
  });

  it('an area responsible registers a tax category with its own rate in a tax area', async () => {
    const page = await signedIn('settlement-area-responsible', AREA);
    await page.goto(`${baseUrl()}/administration/entities/registration/taxcategory`);
    await page.getByTestId('entity-form').waitFor();
    await field(page, 'Name').fill(TAX_CATEGORY);
    await field(page, 'Rate').fill('5,46');
    await page.getByRole('button', { name: 'Add tax area' }).click();
    await page.locator('input[aria-label="Tax area 1"]').click();
    await page.getByRole('option', { name: TAX_AREA, exact: true }).click();
    await page.locator('input[aria-label="Rate 1"]').fill('abc');
    await save(page);
    // A rate that is not a number is refused on the list, and nothing is saved.
    await expect.poll(() => page.getByText('must be a decimal').count()).toBeGreaterThan(0);
    await page.locator('input[aria-label="Rate 1"]').fill('0');
    await save(page);
    await expect
      .poll(() => new URL(page.url()).pathname, { timeout: 15_000 })
      .toBe('/administration/entities/overview');
    const row = page.getByTestId('entity-row').filter({ hasText: TAX_CATEGORY });
    await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(1);
    await expect.poll(() => row.textContent()).toContain(`${TAX_AREA}: 0`);
    await page.context().close();
  });
});
