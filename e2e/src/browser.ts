import { chromium, type Browser, type BrowserContextOptions, type Locator, type Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { checkScreens, expectAccessible } from './axe.js';

export { expectAccessible } from './axe.js';

/** Flags from the machine's notes: without the last three the closed network floods chromium. */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const baseUrl = (): string => inject('baseUrl');

/**
 * Chromium for a journey. Every context it opens checks each screen the journey opens with axe
 * (axe.ts checkScreens). Not with reduced motion: the app's Mantine does not honour it (with
 * respectReducedMotion the upload dialog never showed its files' status).
 */
export async function launch(): Promise<Browser> {
  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: true });
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options = {}) => {
    const context = await newContext(options);
    checkScreens(context, (url) => url.startsWith(baseUrl()));
    return context;
  };
  return browser;
}

/** Opens the app and signs in through the identity provider's login form (Keycloak's field ids). */
export async function signIn(page: Page, username: string, path = '/'): Promise<void> {
  await page.goto(`${baseUrl()}${path}`);
  await page.waitForSelector('#username', { timeout: 30_000 });
  await expectAccessible(page, 'sign-in form');
  await page.fill('#username', username);
  await page.fill('#password', 'demo');
  await page.click('#kc-login');
  await page.waitForSelector('[data-testid="user-display-name"]', { timeout: 30_000 });
}

/** The labels of the main menu, in order. */
export async function menuLabels(page: Page): Promise<string[]> {
  const nav = page.getByRole('navigation', { name: /main/i });
  await nav.waitFor();
  return (await nav.getByRole('link').allTextContents()).map((t) => t.trim()).filter(Boolean);
}

/** Chooses an area in the header's selector (when it is not already chosen) and waits for it. */
export async function chooseArea(page: Page, area: string): Promise<void> {
  if ((await page.getByTestId('area-selector').inputValue()) === area) return;
  await page.getByTestId('area-selector').click();
  await page.getByRole('option', { name: area, exact: true }).click();
  // On the embedded database a long statement (a CEBD file's check on arrival) holds the one session,
  // and the switch's reads wait for its end: seconds, not the poll's default five.
  await expect.poll(() => page.getByTestId('area-selector').inputValue(), { timeout: 30_000 }).toBe(area);
}

/**
 * A new browser context signed in as `user` with `area` selected. `onPage` sees the page before the
 * first request (e.g. to record where requests go).
 */
export async function signedIn(
  browser: Browser,
  user: string,
  area: string,
  options: BrowserContextOptions & { onPage?: (page: Page) => void } = {},
): Promise<Page> {
  const { onPage, ...contextOptions } = options;
  const context = await browser.newContext(contextOptions);
  const page = await context.newPage();
  onPage?.(page);
  await signIn(page, user);
  await chooseArea(page, area);
  return page;
}

/** A form field by its label; required fields carry Mantine's asterisk after the label text. */
export const field = (page: Page, label: string) =>
  page.getByRole('textbox', { name: new RegExp(`^${label}( \\*)?$`) });

/** Calls an /api path from the signed-in page with its token and area (what the web client sends). */
export async function api<T>(
  page: Page,
  path: string,
  init: { method?: string; file?: { name: string; text: string }; json?: unknown } = {},
) {
  return page.evaluate(
    async ({ url, method, file, json }) => {
      // The e2e project has no DOM types: what this needs of the page's globals.
      type Store = { getItem(key: string): string | null } & Record<string, unknown>;
      const g = globalThis as unknown as {
        sessionStorage: Store;
        localStorage: Store;
        FormData: new () => { append(name: string, value: unknown, fileName: string): void };
        Blob: new (parts: string[], options: { type: string }) => unknown;
      };
      const key = Object.keys(g.sessionStorage).find((k) => k.startsWith('oidc.user:'))!;
      const token = (JSON.parse(g.sessionStorage.getItem(key)!) as { access_token: string }).access_token;
      const tenant =
        g.sessionStorage.getItem('selectedSettlementArea') ?? g.localStorage.getItem('selectedSettlementArea');
      let body: unknown = json === undefined ? undefined : JSON.stringify(json);
      if (file) {
        const form = new g.FormData();
        const type = file.name.endsWith('.csv') ? 'text/csv' : 'application/xml';
        form.append('files', new g.Blob([file.text], { type }), file.name);
        body = form;
      }
      const res = await fetch(url, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          'current-tenant-id': tenant!,
          ...(json === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body as never,
      });
      if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
      return (await res.json()) as unknown;
    },
    { url: path, method: init.method ?? 'GET', file: init.file, json: init.json },
  ) as Promise<T>;
}

/** A procedure result as the journeys read it. */
export interface Result {
  id: number;
  status: string;
  jobId?: string | null;
}

/** The newest result of a procedure. */
export const newest = async (page: Page, procedure: string): Promise<Result | undefined> =>
  (
    await api<{ content: Result[] }>(
      page,
      `/api/eventlog/procedure-result/findBy?procedureName=${procedure}&page=0&size=1&sortBy=executeStartTime&descendingOrder=true`,
      { method: 'POST', json: {} },
    )
  ).content[0];

/** Waits until the newest result of `procedure` newer than `after` has succeeded; answers it. */
export async function succeeded(page: Page, procedure: string, after = 0, timeout = 240_000): Promise<Result> {
  let last: Result | undefined;
  await expect
    .poll(
      async () => {
        last = await newest(page, procedure);
        return last && last.id > after ? last.status : 'waiting';
      },
      { timeout, interval: 1_000 },
    )
    .toBe('success');
  return last!;
}

/** Uploads a file through an upload call (as the DCS, the grid or the market would) and waits for its import job. */
export async function uploadFile(page: Page, path: string, name: string, text: string): Promise<void> {
  const cebd = path === '/api/cebd/import';
  const before = cebd ? ((await newest(page, 'cebd-preprocessing'))?.id ?? 0) : 0;
  const answer = await api<{ jobIds?: string[] }>(page, path, { method: 'POST', file: { name, text } });
  const [jobId] = answer.jobIds ?? [];
  expect(jobId).toBeDefined();
  let job: { status: string } | undefined;
  await expect
    .poll(
      async () => {
        job = await api<{ status: string }>(page, `/api/jobs/${jobId}`);
        return ['success', 'failure', 'dead'].includes(job.status);
      },
      { timeout: 60_000 },
    )
    .toBe(true);
  // The job as the server tells it, so a failed import says why.
  expect(JSON.stringify(job), name).toContain('"status":"success"');
  // A CEBD file is checked on arrival by a cebd-preprocessing run of its own (the cebd-check job): a
  // run the journey starts next would meet it as process_already_running.
  if (cebd) await succeeded(page, 'cebd-preprocessing', before, 60_000);
}

/** Runs a procedure over `timeRange` through the run call; answers its result once it succeeded. */
export async function runProcedure(
  page: Page,
  procedure: string,
  timeRange: { start: string; end: string },
  zoneId: string,
): Promise<Result> {
  const before = (await newest(page, procedure))?.id ?? 0;
  await api(page, `/api/processing/${procedure}/run?zoneId=${zoneId}`, {
    method: 'POST',
    json: { timeRange, refs: [] },
  });
  return succeeded(page, procedure, before);
}

/** Whether the element is the page's focused element. */
export const isFocused = (locator: Locator): Promise<boolean> =>
  locator.evaluate(
    (el) => el === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement,
  );

/**
 * Presses Tab (Shift+Tab with `backwards`) until `target` has the focus, as a keyboard user moves
 * through the page; fails when it is not reached within `max` presses (not reachable by keyboard).
 */
export async function tabTo(page: Page, target: Locator, { max = 80, backwards = false } = {}): Promise<void> {
  await target.waitFor({ timeout: 30_000 });
  for (let i = 0; i < max; i += 1) {
    if (await isFocused(target)) return;
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
  }
  if (!(await isFocused(target))) throw new Error(`not reached by ${max} presses of Tab: ${String(target)}`);
}
