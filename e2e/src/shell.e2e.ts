import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, chooseArea, launch, menuLabels, signIn } from './browser.js';

/*
 * Expectations come from product.md §2 (menu table, landing and redirect rules) for each demo user in the
 * area selected at first sign-in: the first of their areas sorted by name. They are written out here, not
 * derived from the app's route table, so that these journeys check the table rather than repeat it.
 */
const ALL = ['Monitor', 'Settlement and verification', 'Fleet', 'Infrastructure', 'Administration'];
/** A consumer is not offered Fleet: the menu follows the route's domainRead policy (issue 6). */
const ALL_BUT_FLEET = ALL.filter((label) => label !== 'Fleet');
/** The dashboard's labelled entry comes first where / leaves the user on it (issue 18). */
const D = 'Dashboard';
const journeys: { user: string; area: string; path: RegExp; menu: string[] }[] = [
  // The administration area has no dashboard: user administrators land on its users (issue 18: not an
  // empty registration form).
  {
    user: 'erex-administrator',
    area: 'Administration',
    path: /\/administration\/user\/overview$/,
    menu: ['Infrastructure', 'Administration'],
  },
  {
    user: 'settlement-area-responsible',
    area: 'Administration',
    path: /\/administration\/user\/overview$/,
    menu: ['Infrastructure', 'Administration'],
  },
  { user: 'audit-settlement-area-responsible', area: 'Belgium', path: /\/$/, menu: [D, ...ALL] },
  { user: 'erex-settlement-operator', area: 'Belgium', path: /\/$/, menu: [D, ...ALL] },
  { user: 'audit-erex-settlement-operator', area: 'Belgium', path: /\/$/, menu: [D, ...ALL] },
  { user: 'exchange-operator', area: 'Exchange', path: /\/$/, menu: [D, 'Monitor', 'Fleet', 'Infrastructure'] },
  { user: 'cp-admin', area: 'Belgium', path: /\/$/, menu: [D, 'Monitor', 'Fleet', 'Infrastructure'] },
  { user: 'vehicle-keeper', area: 'Belgium', path: /\/fleet\/overview$/, menu: ['Fleet'] },
  // A consumer lands on its own settlement figures (issue 18), as consumer-provider does (rule 1).
  {
    user: 'consumer',
    area: 'Belgium',
    path: /\/settlementandverification\/settlementbaseverification$/,
    menu: ALL_BUT_FLEET,
  },
  { user: 'train-run-data-provider', area: 'Belgium', path: /\/monitor\/datalog$/, menu: ['Monitor'] },
  {
    user: 'consumer-provider',
    area: 'Belgium',
    path: /\/settlementandverification\/settlementbaseverification$/,
    menu: ALL_BUT_FLEET,
  },
  { user: 'keeper-cpadmin', area: 'Belgium', path: /\/$/, menu: [D, 'Monitor', 'Fleet', 'Infrastructure'] },
];

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

async function freshPage(): Promise<Page> {
  const context = await browser.newContext();
  return context.newPage();
}

const selectedArea = (page: Page) => page.getByTestId('area-selector').inputValue();

describe('signing in as each demo user', () => {
  for (const j of journeys) {
    it(`${j.user} lands where the spec says and sees its menu`, async () => {
      const page = await freshPage();
      await signIn(page, j.user);
      await expect.poll(() => selectedArea(page)).toBe(j.area);
      await expect.poll(() => new URL(page.url()).pathname).toMatch(j.path);
      expect(await menuLabels(page)).toEqual(j.menu);
      await expect.poll(() => page.getByTestId('app-version').textContent()).toContain('2.0.2.105.28');
      await page.context().close();
    });
  }
});

describe('the shell', () => {
  it('switches areas, keeps the area over a reload, and shows the area time zone', async () => {
    const page = await freshPage();
    await signIn(page, 'settlement-area-responsible');
    await page.getByTestId('area-selector').click();
    await page.getByRole('option', { name: 'Norway' }).click();
    await expect.poll(() => selectedArea(page)).toBe('Norway');
    await expect.poll(() => page.getByTestId('selected-timezone').textContent()).toContain('Europe/Oslo');
    expect(await menuLabels(page)).toEqual([D, ...ALL]);
    await page.reload();
    await page.waitForSelector('[data-testid="user-display-name"]');
    await expect.poll(() => selectedArea(page)).toBe('Norway');
    await page.context().close();
  });

  it('lands on the Master Data dashboard, not on /unauthorized, when the administrator chooses Master Data (issue 6)', async () => {
    const page = await freshPage();
    await signIn(page, 'erex-administrator');
    await page.goto(`${baseUrl()}/administration/organisation/overview`);
    await page.getByTestId('area-selector').click();
    await page.getByRole('option', { name: 'Master Data' }).click();
    await expect.poll(() => selectedArea(page)).toBe('Master Data');
    await expect.poll(() => new URL(page.url()).pathname).toBe('/');
    await page.waitForTimeout(500);
    expect(new URL(page.url()).pathname).toBe('/');
    await page.context().close();
  });

  it("reaches the event monitor and the areas overview by clicking only: the main menu, then the section's pages (issue 18)", async () => {
    const page = await freshPage();
    await signIn(page, 'settlement-area-responsible');
    await chooseArea(page, 'Norway');
    const mainMenu = page.getByRole('navigation', { name: 'Main menu' });
    const path = () => new URL(page.url()).pathname;

    await mainMenu.getByRole('link', { name: 'Monitor' }).click();
    const monitorPages = page.getByRole('navigation', { name: 'Monitor pages' });
    await monitorPages.getByRole('link', { name: 'Event monitor' }).click();
    await expect.poll(path).toBe('/monitor/eventmonitor');
    await page.getByRole('heading', { level: 1, name: 'Event monitor' }).waitFor();
    expect(await monitorPages.getByRole('link', { name: 'Event monitor' }).getAttribute('aria-current')).toBe('page');

    await mainMenu.getByRole('link', { name: 'Infrastructure' }).click();
    const infrastructurePages = page.getByRole('navigation', { name: 'Infrastructure pages' });
    await infrastructurePages.getByRole('link', { name: 'Areas overview' }).click();
    await expect.poll(path).toBe('/infrastructure/areas/overview');
    await page.getByRole('heading', { level: 1, name: 'Areas overview' }).waitFor();
    expect(await infrastructurePages.getByRole('link', { name: 'Areas overview' }).getAttribute('aria-current')).toBe(
      'page',
    );
    await page.context().close();
  });

  it('reaches every page of Monitor, Settlement, Infrastructure and Administration by clicking only, each process configuration too (issue 18)', async () => {
    const page = await freshPage();
    await signIn(page, 'settlement-area-responsible');
    await chooseArea(page, 'Norway');
    const mainMenu = page.getByRole('navigation', { name: 'Main menu' });
    const path = () => new URL(page.url()).pathname;

    // The dashboard has a labelled entry, not only the logo.
    await mainMenu.getByRole('link', { name: 'Dashboard' }).click();
    await expect.poll(path).toBe('/');
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();

    for (const section of ['Monitor', 'Settlement and verification', 'Infrastructure', 'Administration']) {
      await mainMenu.getByRole('link', { name: section, exact: true }).click();
      const pages = page.getByRole('navigation', { name: `${section} pages` });
      await pages.waitFor();
      const links = await pages
        .getByRole('link')
        .evaluateAll((as) =>
          as.map((a) => ({ name: (a.textContent ?? '').trim(), href: a.getAttribute('href') ?? '' })),
        );
      expect({ section, atLeast: links.length >= 3 }).toEqual({ section, atLeast: true });
      for (const link of links) {
        await pages.getByRole('link', { name: link.name, exact: true }).click();
        await expect.poll(path).toBe(link.href);
        await page.getByRole('heading', { level: 1 }).first().waitFor();
        // Each page the second level offers is built (no "not built yet" notice) and marked as open.
        expect({ page: link.href, notBuilt: await page.getByTestId('not-built').count() }).toEqual({
          page: link.href,
          notBuilt: 0,
        });
        await expect
          .poll(() => pages.getByRole('link', { name: link.name, exact: true }).getAttribute('aria-current'))
          .toBe('page');
        // An import page opens its upload dialog on arrival: close it to go on.
        if ((await page.getByRole('dialog').count()) > 0) {
          await page.keyboard.press('Escape');
          await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
        }
      }
    }

    // Each process's configuration from the processes page.
    await mainMenu.getByRole('link', { name: 'Monitor', exact: true }).click();
    await page.getByRole('navigation', { name: 'Monitor pages' }).getByRole('link', { name: 'Processes' }).click();
    const row = page.getByTestId('process-row').filter({ hasText: 'Price and supply' });
    await row.getByRole('link', { name: 'Configuration' }).click();
    await expect.poll(path).toBe('/monitor/processes/price-and-supply/configuration/view');
    await page.getByTestId('config-values').waitFor({ timeout: 30_000 });
    await page.context().close();
  });

  it('shows the areas overview with the map beside the table at 1440 px, the selected area named on it (issue 18)', async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await signIn(page, 'settlement-area-responsible');
    await chooseArea(page, 'Norway');
    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Infrastructure' }).click();
    await page
      .getByRole('navigation', { name: 'Infrastructure pages' })
      .getByRole('link', { name: 'Areas overview' })
      .click();
    const map = page.getByTestId('areas-map');
    await expect.poll(() => map.getAttribute('data-ready'), { timeout: 60_000 }).toBe('true');
    const table = page.getByTestId('areas-table');
    await page.getByTestId('area-row').first().waitFor();
    const tableBox = (await table.boundingBox())!;
    const mapBox = (await map.boundingBox())!;
    // Beside: the map starts right of the table and level with its top, not below it.
    expect(mapBox.x).toBeGreaterThanOrEqual(tableBox.x + tableBox.width - 1);
    expect(Math.abs(mapBox.y - tableBox.y)).toBeLessThan(120);
    expect(mapBox.x + mapBox.width).toBeLessThanOrEqual(1440);

    // A selected area is named on the map, at its label point (an HTML label: no glyphs are bundled).
    const name = (await page.getByTestId('area-row').first().getByRole('cell').nth(2).textContent())!.trim();
    await page.getByTestId('area-row').first().getByRole('checkbox').check();
    await expect.poll(() => map.getAttribute('data-labels')).toContain(name);
    await expect.poll(() => page.locator('.railwatt-map-label').allTextContents()).toContain(name);
    await context.close();
  });

  it('brings a returning user back to the area and page left (issue 18)', async () => {
    const page = await freshPage();
    await signIn(page, 'settlement-area-responsible');
    await chooseArea(page, 'Norway');
    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Monitor' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/monitor/datalog');
    await page.getByRole('navigation', { name: 'Monitor pages' }).getByRole('link', { name: 'Event monitor' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/monitor/eventmonitor');
    await page.getByRole('heading', { level: 1, name: 'Event monitor' }).waitFor();
    await page.getByTestId('logout').click();
    await page.waitForSelector('#kc-login', { timeout: 30_000 });
    // Signed in again (same browser): Norway and the event monitor, not the Administration area's landing.
    await signIn(page, 'settlement-area-responsible');
    await expect.poll(() => new URL(page.url()).pathname).toBe('/monitor/eventmonitor');
    await expect.poll(() => selectedArea(page)).toBe('Norway');
    await page.getByRole('heading', { level: 1, name: 'Event monitor' }).waitFor();
    await page.context().close();
  });

  it('sends a user without the role to /unauthorized and an unknown path to /notfound', async () => {
    const page = await freshPage();
    await signIn(page, 'vehicle-keeper');
    await page.goto(`${baseUrl()}/administration/user/overview`);
    await expect.poll(() => new URL(page.url()).pathname).toBe('/unauthorized');
    await page.goto(`${baseUrl()}/no/such/page`);
    await expect.poll(() => new URL(page.url()).pathname).toBe('/notfound');
    await page.context().close();
  });

  it('logs out back to the login form', async () => {
    const page = await freshPage();
    await signIn(page, 'consumer');
    await page.getByTestId('logout').click();
    await page.waitForSelector('#kc-login', { timeout: 30_000 });
    await page.goto(baseUrl());
    await page.waitForSelector('#kc-login', { timeout: 30_000 });
    await page.context().close();
  });
});
