import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import { expect, inject } from 'vitest';

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

export async function launch(): Promise<Browser> {
  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  return chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: true });
}

/** Opens the app and signs in through the identity provider's login form (Keycloak's field ids). */
export async function signIn(page: Page, username: string, path = '/'): Promise<void> {
  await page.goto(`${baseUrl()}${path}`);
  await page.waitForSelector('#username', { timeout: 30_000 });
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
  await expect.poll(() => page.getByTestId('area-selector').inputValue()).toBe(area);
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
