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
const journeys: { user: string; area: string; path: RegExp; menu: string[] }[] = [
  {
    user: 'erex-administrator',
    area: 'Administration',
    path: /\/administration\/user\/registration$|\/$/,
    menu: ['Infrastructure', 'Administration'],
  },
  {
    user: 'settlement-area-responsible',
    area: 'Administration',
    path: /\/administration\/user\/registration$|\/$/,
    menu: ['Infrastructure', 'Administration'],
  },
  { user: 'audit-settlement-area-responsible', area: 'Belgium', path: /\/$/, menu: ALL },
  { user: 'erex-settlement-operator', area: 'Belgium', path: /\/$/, menu: ALL },
  { user: 'audit-erex-settlement-operator', area: 'Belgium', path: /\/$/, menu: ALL },
  { user: 'exchange-operator', area: 'Exchange', path: /\/$/, menu: ['Monitor', 'Fleet', 'Infrastructure'] },
  { user: 'cp-admin', area: 'Belgium', path: /\/$/, menu: ['Monitor', 'Fleet', 'Infrastructure'] },
  { user: 'vehicle-keeper', area: 'Belgium', path: /\/fleet\/overview$/, menu: ['Fleet'] },
  { user: 'consumer', area: 'Belgium', path: /\/$/, menu: ALL_BUT_FLEET },
  { user: 'train-run-data-provider', area: 'Belgium', path: /\/monitor\/datalog$/, menu: ['Monitor'] },
  {
    user: 'consumer-provider',
    area: 'Belgium',
    path: /\/settlementandverification\/settlementbaseverification$/,
    menu: ALL_BUT_FLEET,
  },
  { user: 'keeper-cpadmin', area: 'Belgium', path: /\/$/, menu: ['Monitor', 'Fleet', 'Infrastructure'] },
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
    expect(await menuLabels(page)).toEqual(ALL);
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
