import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cebdXml } from '../../apps/server/src/formats/cebd/generate.js';
import {
  api,
  baseUrl,
  expectAccessible,
  isFocused,
  launch,
  newest,
  runProcedure,
  succeeded,
  tabTo,
  uploadFile,
} from './browser.js';

/*
 * Issue 18 item 7: a month settled with the keyboard alone. The settlement-area responsible signs
 * in, chooses Finland, reaches the settlement process through the main menu and the section's pages,
 * picks November 2026 in the month picker, approves the month's prices in the question dialog, runs
 * the settlement, and approves it: Tab, Shift+Tab, Enter, Space and the arrows, never a click; axe on
 * every screen, dialog and open list. The month's files come through the upload calls, as in the
 * settlement journey (the DCS, the grid and the market send them; no user types them in).
 */
const AREA = 'Finland';
const USER = 'settlement-area-responsible';
const ZONE = 'Europe/Helsinki';
/**
 * November 2026 in Helsinki: no other journey settles it in Finland (the settlement journey settles
 * October), and its files are younger than the 60 days after which CEBD is refused.
 */
const NOVEMBER = { start: '2026-10-31T22:00:00Z', end: '2026-11-30T22:00:00Z' };
const WAIT = 240_000;
const stamp = Date.now().toString().slice(-6);

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

/** The month's CEBD, supply and prices through the upload calls, then the chain and price-and-supply. */
async function monthOfFiles(page: Page): Promise<void> {
  const points = await api<unknown[]>(page, '/api/domain/consumptionpoint/all');
  const cpids = [...JSON.stringify(points).matchAll(/"cpid":"([^"]+)"/g)].map((m) => m[1]!).sort();
  expect(cpids.length).toBeGreaterThan(0);
  const cebd = cebdXml({
    seed: Number(stamp),
    points: [{ cpid: cpids[0]!, route: [{ lat: 60.74, lon: 24.77 }], start: '2026-11-02T08:00:00Z', periods: 24 }],
  });
  await uploadFile(page, '/api/cebd/import', `keyboard-${stamp}-cebd.xml`, [...cebd].join(''));
  const hours = (type: string, column: string, values: [number, number]) =>
    [
      `type;${type}`,
      `startInclusive;endExclusive;${column}`,
      `2026-11-02T08:00:00Z;2026-11-02T09:00:00Z;${values[0]}`,
      `2026-11-02T09:00:00Z;2026-11-02T10:00:00Z;${values[1]}`,
    ].join('\n');
  const csv = '/api/excel/timeseries/csv-import';
  await uploadFile(page, csv, `keyboard-${stamp}-supply.csv`, hours('supply_energy', 'SMP-HELSINKI', [20000, 20000]));
  await uploadFile(page, csv, `keyboard-${stamp}-prices.csv`, hours('spot_price', 'FI', [40, 60]));
  const before = (await newest(page, 'energy-outside-train-run'))?.id ?? 0;
  await runProcedure(page, 'cebd-preprocessing', NOVEMBER, ZONE);
  await succeeded(page, 'energy-outside-train-run', before);
  await runProcedure(page, 'price-and-supply', NOVEMBER, ZONE);
}

/** The focused element shows a focus ring (WCAG 2.4.7): an outline of some width that is drawn. */
const showsFocus = (target: Locator) =>
  target.evaluate((el) => {
    const g = globalThis as unknown as {
      getComputedStyle(e: unknown): { outlineStyle: string; outlineWidth: string };
    };
    const style = g.getComputedStyle(el);
    return style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
  });

/** Answers the open question dialog with Yes, by keyboard, after checking it with axe. */
async function answerYes(page: Page, label: string): Promise<void> {
  const dialog = page.getByRole('dialog');
  await dialog.waitFor({ timeout: 15_000 });
  await expectAccessible(page, label);
  await tabTo(page, dialog.getByRole('button', { name: 'Yes' }), { max: 10 });
  await page.keyboard.press('Enter');
  await expect.poll(() => dialog.count(), { timeout: 15_000 }).toBe(0);
}

describe('keyboard only', () => {
  it('signs in, chooses the area, reaches the settlement process and settles a month without a click', async () => {
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    const page = await context.newPage();

    // 1. Sign in: the form's fields by Tab, the form sent with Enter.
    await page.goto(`${baseUrl()}/`);
    await tabTo(page, page.locator('#username'));
    await expectAccessible(page, 'sign-in form');
    await page.keyboard.type(USER);
    await page.keyboard.press('Tab');
    await page.keyboard.type('demo');
    await page.keyboard.press('Enter');
    await page.getByTestId('user-display-name').waitFor({ timeout: 30_000 });
    await expectAccessible(page, 'landing page');

    // 2. The area: the header's selector opens with ArrowDown; the arrows move to Finland, Enter takes it.
    const selector = page.getByTestId('area-selector');
    if ((await selector.inputValue()) !== AREA) {
      await tabTo(page, selector);
      await page.keyboard.press('ArrowDown');
      const listbox = page.getByRole('listbox');
      await listbox.waitFor();
      await expectAccessible(page, 'area selector, open');
      const current = page.locator('[data-combobox-selected]');
      for (let i = 0; i < 30 && (await current.textContent().catch(() => null)) !== AREA; i += 1) {
        await page.keyboard.press('ArrowDown');
      }
      await page.keyboard.press('Enter');
      await expect.poll(() => selector.inputValue(), { timeout: 15_000 }).toBe(AREA);
    }

    // The month's files, as the DCS, the grid and the market send them.
    await monthOfFiles(page);

    // 3. The main menu's Settlement, then the section's Settlement process, each by Tab and Enter.
    const settlementSection = page
      .getByRole('navigation', { name: 'Main menu' })
      .getByRole('link', { name: /^Settlement/ });
    await tabTo(page, settlementSection, { max: 40 });
    expect(await showsFocus(settlementSection)).toBe(true);
    await page.keyboard.press('Enter');
    const processLink = page.getByRole('link', { name: 'Settlement process', exact: true });
    await tabTo(page, processLink, { max: 40 });
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Settlement process' }).waitFor({ timeout: 15_000 });
    await expectAccessible(page, 'settlement process');

    // 4. November in the month picker: Enter opens it, the arrows move from the month shown (the
    // previous month, October), Enter picks.
    const month = page.getByTestId('settlement-month');
    await tabTo(page, month, { max: 40 });
    await page.keyboard.press('Enter');
    const shown = page.getByRole('button', { name: /^Oct/ });
    await shown.waitFor({ timeout: 15_000 });
    await expectAccessible(page, 'month picker, open');
    await tabTo(page, shown, { max: 10 });
    await page.keyboard.press('ArrowRight');
    expect(await isFocused(page.getByRole('button', { name: /^Nov/ }))).toBe(true);
    await page.keyboard.press('Enter');
    await expect.poll(() => new URL(page.url()).searchParams.get('month'), { timeout: 15_000 }).toBe('11');

    // 5. The month's prices: the warning's button asks, Yes approves.
    const approvePrices = page.getByTestId('approve-prices');
    await tabTo(page, approvePrices);
    await expectAccessible(page, 'settlement process, prices not approved');
    await page.keyboard.press('Enter');
    await answerYes(page, 'approve prices question');
    await expect.poll(() => page.getByTestId('prices-not-approved').count(), { timeout: 15_000 }).toBe(0);

    // 6. Run the settlement with Space and follow it to success.
    const run = page.getByTestId('run-settlement');
    await tabTo(page, run, { max: 40, backwards: true });
    expect(await showsFocus(run)).toBe(true);
    await page.keyboard.press('Space');
    const panel = page.getByTestId('settlement-result-panel');
    const status = page.getByTestId('settlement-status');
    await expect
      .poll(async () => ((await panel.count()) > 0 ? status.getAttribute('data-status') : 'waiting'), {
        timeout: WAIT,
        interval: 1_000,
      })
      .toBe('success');
    await page.getByTestId('settlement-line-row').first().waitFor({ timeout: 15_000 });
    await expectAccessible(page, 'settlement process, settled');

    // 7. Approve it: the button asks, Yes approves.
    const approve = page.getByTestId('settlement-approve');
    await tabTo(page, approve, { max: 40, backwards: true });
    await page.keyboard.press('Enter');
    await answerYes(page, 'approve settlement question');
    await expect.poll(() => status.getAttribute('data-status'), { timeout: 30_000 }).toBe('approved');
    await expectAccessible(page, 'settlement process, approved');
    await context.close();
  }, 600_000);
});
