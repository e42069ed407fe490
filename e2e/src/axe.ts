import { appendFileSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { BrowserContext, Locator, Page } from 'playwright-core';

/*
 * WCAG 2.2 AA in the browser journeys (issue 18 item 7): axe-core runs on every screen a journey
 * opens and fails the journey on any serious or critical violation.
 */

/** The rule sets of WCAG 2.0, 2.1 and 2.2 at levels A and AA (axe-core's tags). */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

/** The impacts that fail a journey. */
const FAILING = new Set(['serious', 'critical']);

/**
 * axe's source, evaluated in the page rather than added as a script tag: the app's
 * Content-Security-Policy (script-src 'self') refuses an inline <script>, and the journeys test the
 * app with its real headers.
 */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeNode {
  target: string[];
  failureSummary?: string;
}
export interface AxeViolation {
  id: string;
  impact?: string | null;
  help: string;
  nodes: AxeNode[];
}

/**
 * The violations of WCAG 2.x A/AA on the page as it is now. A page that navigates while axe runs
 * (a redirect finishing) is checked again once it has loaded.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await runAxe(page);
    } catch (error) {
      const navigated = /Execution context was destroyed|navigation|Cannot find context/i.test(String(error));
      if (!navigated || attempt >= 3) throw error;
      await page.waitForLoadState('load');
    }
  }
}

async function runAxe(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(`globalThis.axe || (0, eval)(${JSON.stringify(AXE_SOURCE)})`);
  return page.evaluate(async (tags) => {
    // The e2e project has no DOM types: what this needs of the page's globals.
    const g = globalThis as unknown as {
      document: { getAnimations(): { finished: Promise<unknown> }[] };
      axe: {
        run(context: unknown, options: unknown): Promise<{ violations: AxeViolation[] }>;
      };
    };
    // A dialog or menu still fading in has colours part-way to their own: axe would measure the
    // contrast of a frame no one reads (CI once failed on a confirmation half faded in). The screen
    // is checked once its transitions have ended, waiting at most 2 s.
    const settled = Promise.all(g.document.getAnimations().map((a) => a.finished.catch(() => undefined)));
    await Promise.race([settled, new Promise((resolve) => setTimeout(resolve, 2_000))]);
    const result = await g.axe.run(g.document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return result.violations.map(({ id, impact, help, nodes }) => ({
      id,
      impact,
      help,
      nodes: nodes.map(({ target, failureSummary }) => ({ target: target.map(String), failureSummary })),
    }));
  }, WCAG_TAGS);
}

/** One violation as a reader of a failed journey needs it: rule, impact, summary, where. */
export function describeViolation(v: AxeViolation): string {
  const nodes = v.nodes.slice(0, 5).map((n) => {
    const why = (n.failureSummary ?? '').split('\n').slice(1).join(' ').trim();
    return `    ${n.target.join(' ')}${why ? `: ${why}` : ''}`;
  });
  const more = v.nodes.length > 5 ? [`    ... and ${v.nodes.length - 5} more`] : [];
  return [`  ${v.id} (${v.impact}): ${v.help} [${v.nodes.length}]`, ...nodes, ...more].join('\n');
}

/**
 * Fails when axe finds a serious or critical violation of WCAG 2.x A/AA on the page, listing them.
 * With AXE_REPORT=<file> the violations (of every impact) are appended to that file as JSON lines
 * instead, for a survey of every screen the journeys open.
 */
export async function expectAccessible(page: Page, label: string): Promise<void> {
  const violations = await axeViolations(page);
  const report = process.env.AXE_REPORT;
  if (report) {
    if (violations.length > 0) {
      appendFileSync(report, `${JSON.stringify({ label, url: page.url(), violations })}\n`);
    }
    return;
  }
  const failing = violations.filter((v) => FAILING.has(v.impact ?? ''));
  if (failing.length > 0) {
    throw new Error(
      `axe: ${failing.length} serious or critical WCAG violations on ${label} (${page.url()}):\n` +
        failing.map(describeViolation).join('\n'),
    );
  }
}

/** What makes a screen new: its path and the dialogs, lists and menus open on it. */
async function screenKey(page: Page): Promise<string | null> {
  try {
    return await page.evaluate(() => {
      // The e2e project has no DOM types: what this needs of the page's globals.
      type El = { getClientRects(): { length: number } };
      const g = globalThis as unknown as {
        location: { pathname: string };
        document: { querySelectorAll(selector: string): Iterable<El> };
      };
      const open = (role: string) =>
        [...g.document.querySelectorAll(`[role="${role}"]`)].filter((el) => el.getClientRects().length > 0).length;
      return [g.location.pathname, open('dialog'), open('listbox'), open('menu')].join('|');
    });
  } catch {
    return null; // navigating: the next action checks the screen it lands on
  }
}

const watched = new WeakMap<Page, { isApp: (url: string) => boolean }>();

/**
 * The screens this journey file has checked (every page of every context of the file): a screen
 * the journey comes back to is not checked again. Each check costs a second or two of axe in the
 * page, and the journeys revisit lists and dashboards many times (CI's 30-minute budget).
 */
const checked = new Set<string>();

/** Checks the page with axe when its screen (path, open dialogs, lists, menus) has not been checked yet. */
async function checkIfNew(page: Page): Promise<void> {
  const state = watched.get(page);
  if (!state || page.isClosed() || !state.isApp(page.url())) return;
  const key = await screenKey(page);
  if (key === null || checked.has(key)) return;
  checked.add(key);
  const [path, dialogs, lists, menus] = key.split('|');
  const open = [dialogs !== '0' && 'dialog', lists !== '0' && 'list', menus !== '0' && 'menu'].filter(Boolean);
  await expectAccessible(page, open.length > 0 ? `${path} with ${open.join(', ')} open` : path!);
}

type Act = (this: Locator, ...args: unknown[]) => Promise<void>;
let locatorsPatched = false;

/** Before a locator's click or check, the screen it acts on is checked (once per screen). */
function patchLocators(page: Page): void {
  if (locatorsPatched) return;
  locatorsPatched = true;
  const proto = Object.getPrototypeOf(page.locator('body')) as Record<'click' | 'check', Act>;
  for (const name of ['click', 'check'] as const) {
    const act = proto[name];
    proto[name] = async function (this: Locator, ...args: unknown[]) {
      await checkIfNew(this.page());
      return act.apply(this, args);
    };
  }
}

/**
 * Checks every screen a journey opens with axe, once per screen and journey file (its path, and
 * the dialogs, lists and menus open on it): before a locator's click or check or a key press acts on it, before
 * page.goto leaves it, and before the context closes. So a screen is checked as the journey found
 * it, loaded, with what it opened.
 */
export function checkScreens(context: BrowserContext, isApp: (url: string) => boolean): void {
  context.on('page', (page) => {
    watched.set(page, { isApp });
    patchLocators(page);
    const goto = page.goto.bind(page);
    page.goto = async (url, options) => {
      await checkIfNew(page);
      return goto(url, options);
    };
    // A key pressed acts on the screen too (Escape closing a dialog no click touched).
    const press = page.keyboard.press.bind(page.keyboard);
    page.keyboard.press = async (key, options) => {
      await checkIfNew(page);
      return press(key, options);
    };
  });
  const close = context.close.bind(context);
  context.close = async (options) => {
    try {
      for (const page of context.pages()) await checkIfNew(page);
    } finally {
      await close(options);
    }
  };
}
