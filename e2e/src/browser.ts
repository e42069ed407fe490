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
