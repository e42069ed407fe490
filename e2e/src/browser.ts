import { chromium, type Browser, type Page } from 'playwright-core';
import { inject } from 'vitest';

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
