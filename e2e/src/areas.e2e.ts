import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, baseUrl, launch, signedIn as signedInTo } from './browser.js';

/*
 * Issue 7's area journey in Norway as the erex-administrator (an area writer there): the energy use
 * settlement area the grid areas go into is created through the API first, in the Atlantic where no
 * demo area lies, so the journey does not depend on the demo data. Then a grid area is drawn inside
 * it on the map, saved, listed and shown on the map; a second grid area drawn over the first is
 * refused with 'Areas must not overlap'. Every request the browser makes stays on our own origin:
 * the map's basemap is bundled (no tile server, glyphs or sprites).
 */
const stamp = Date.now().toString().slice(-6);
const EUSA = `Journey EUSA ${stamp}`;
const GRID = `Journey grid ${stamp}`;
const OVERLAPPING = `Journey overlap ${stamp}`;
// A 2 x 1 degree box west of Ireland, moved per run so a reused server does not see an overlap.
const WEST = -40 + (Number(stamp) % 150) / 10;
const SOUTH = 45;

let browser: Browser;
const foreign: string[] = [];

beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

/** Signed in, recording every request that leaves our origin. */
const signedIn = (user: string, area: string): Promise<Page> =>
  signedInTo(browser, user, area, {
    viewport: { width: 1280, height: 1000 },
    onPage: (page) => {
      const origin = new URL(baseUrl()).origin;
      page.on('request', (request) => {
        const url = request.url();
        if (!url.startsWith(`${origin}/`) && !url.startsWith('data:') && !url.startsWith('blob:')) foreign.push(url);
      });
    },
  });

/** POST /api/domain/save from the signed-in page, with its token and area (what the web client sends). */
async function saveThroughApi(page: Page, body: unknown): Promise<{ status: number; json: unknown }> {
  return page.evaluate(async (payload) => {
    // The e2e project has no DOM types: the two storages as far as this needs them.
    type Store = { getItem(key: string): string | null } & Record<string, unknown>;
    const { sessionStorage: session, localStorage: local } = globalThis as unknown as {
      sessionStorage: Store;
      localStorage: Store;
    };
    const key = Object.keys(session).find((k) => k.startsWith('oidc.user:'))!;
    const token = (JSON.parse(session.getItem(key)!) as { access_token: string }).access_token;
    const tenant = session.getItem('selectedSettlementArea') ?? local.getItem('selectedSettlementArea');
    const res = await fetch('/api/domain/save', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'current-tenant-id': tenant!, 'content-type': 'application/json' },
      body: JSON.stringify(payload),
    });
    return { status: res.status, json: (await res.json()) as unknown };
  }, body);
}

async function choose(page: Page, testId: string, option: string): Promise<void> {
  await page.getByTestId(testId).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Clicks the map at fractions of its width and height. */
async function clickMap(page: Page, testId: string, points: [number, number][]): Promise<void> {
  // Mouse clicks land only inside the viewport: bring the whole map into view first.
  await page.getByTestId(testId).scrollIntoViewIfNeeded();
  const box = (await page.getByTestId(testId).boundingBox())!;
  for (const [fx, fy] of points) {
    await page.mouse.click(box.x + box.width * fx, box.y + box.height * fy);
  }
}

/** Registers a grid area in the journey's EUSA by drawing the polygon at the given map fractions. */
async function drawGridArea(
  page: Page,
  name: string,
  points: [number, number][],
  areas: { priceArea?: string; taxArea?: string } = {},
): Promise<void> {
  await page.goto(`${baseUrl()}/infrastructure/areas/registration`);
  const map = page.getByTestId('area-registration-map');
  await expect.poll(() => map.getAttribute('data-ready'), { timeout: 60_000 }).toBe('true');
  await choose(page, 'area-type', 'Grid area');
  await page.getByTestId('area-name').fill(name);
  await choose(page, 'area-parent', EUSA);
  // The price area and the tax area the grid area lies in (settlement prices and taxes by them).
  if (areas.priceArea) await choose(page, 'area-pricearea', areas.priceArea);
  if (areas.taxArea) await choose(page, 'area-taxarea', areas.taxArea);
  // The map fits to the parent (its bounds with the 5 % padding) before anything is drawn.
  await expect.poll(() => map.getAttribute('data-view')).toContain(`[[${WEST},${SOUTH}],[${WEST + 2},${SOUTH + 1}]]`);
  await clickMap(page, 'area-registration-map', points);
  await page.getByTestId('map-draw-finish').click();
  await expect.poll(() => page.getByTestId('map-draw-toolbar').textContent()).toContain('The area is closed');
  // Dragging a corner moves that corner, not the map: only the first corner's position changes.
  const drawing = async () => JSON.parse((await map.getAttribute('data-drawing'))!) as { vertices: number[][] };
  const before = await drawing();
  const box = (await map.boundingBox())!;
  const [fx, fy] = points[0]!;
  await page.mouse.move(box.x + box.width * fx, box.y + box.height * fy);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * (fx + 0.02), box.y + box.height * (fy + 0.02), { steps: 5 });
  await page.mouse.up();
  const after = await drawing();
  expect(after.vertices[0]![0]).toBeGreaterThan(before.vertices[0]![0]!);
  expect(after.vertices[0]![1]).toBeLessThan(before.vertices[0]![1]!);
  expect(after.vertices.slice(1)).toEqual(before.vertices.slice(1));
  await page.getByTestId('area-save').click();
}

describe('infrastructure areas', () => {
  it('draws a grid area inside its energy use settlement area, lists it, shows it on the map and refuses an overlap', async () => {
    const page = await signedIn('erex-administrator', 'Norway');

    const ring = [
      [WEST, SOUTH],
      [WEST + 2, SOUTH],
      [WEST + 2, SOUTH + 1],
      [WEST, SOUTH + 1],
      [WEST, SOUTH],
    ];
    const eusa = await saveThroughApi(page, {
      type: 'EnergyUseSettlementArea',
      name: EUSA,
      geometry: { type: 'Polygon', coordinates: [ring] },
    });
    expect(eusa.status, JSON.stringify(eusa.json)).toBe(200);

    // A rectangle in the middle of the parent as the map shows it.
    await drawGridArea(
      page,
      GRID,
      [
        [0.4, 0.35],
        [0.6, 0.35],
        [0.6, 0.65],
        [0.4, 0.65],
      ],
      { priceArea: 'NO1', taxArea: 'Norway tax area' },
    );
    await page.waitForURL(/\/infrastructure\/areas\/overview\?types=gridarea/);
    // Saved with the price area and the tax area chosen.
    type Named = { uuid: string; name: string; priceAreaRef?: string; taxAreaRef?: string };
    const byName = async (type: string, name: string) =>
      (await api<Named[]>(page, `/api/domain/${type}/all`)).find((e) => e.name === name);
    const saved = await byName('gridarea', GRID);
    expect(saved?.priceAreaRef).toBe((await byName('pricearea', 'NO1'))?.uuid);
    expect(saved?.taxAreaRef).toBe((await byName('taxarea', 'Norway tax area'))?.uuid);
    const row = page.getByTestId('area-row').filter({ hasText: GRID });
    await expect.poll(() => row.count()).toBe(1);
    await expect.poll(() => row.textContent()).toContain(EUSA);
    const overviewMap = page.getByTestId('areas-map');
    await expect.poll(() => overviewMap.getAttribute('data-ready'), { timeout: 60_000 }).toBe('true');
    await expect.poll(() => overviewMap.getAttribute('data-areas')).toContain(GRID);
    await expect.poll(() => page.getByTestId('map-legend').textContent()).toContain('Grid area');
    // Selecting the row fits the map to it.
    await row.getByRole('checkbox').check();
    await expect.poll(() => overviewMap.getAttribute('data-view')).toMatch(/^\{"bounds":\[\[-?[\d.]+,4[56]/);

    // Overlapping the first grid area: refused in the spec's words, under the map.
    await drawGridArea(page, OVERLAPPING, [
      [0.45, 0.4],
      [0.65, 0.4],
      [0.65, 0.7],
      [0.45, 0.7],
    ]);
    await expect
      .poll(() => page.getByTestId('area-geometry-error').textContent(), { timeout: 30_000 })
      .toContain('Areas must not overlap');
    expect(page.url()).toContain('/infrastructure/areas/registration');

    expect(foreign).toEqual([]);
  });
});
