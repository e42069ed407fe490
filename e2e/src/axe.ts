import { appendFileSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { BrowserContext, Page } from 'playwright-core';

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

/** The violations of WCAG 2.x A/AA on the page as it is now. */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(`globalThis.axe || (0, eval)(${JSON.stringify(AXE_SOURCE)})`);
  return page.evaluate(async (tags) => {
    // The e2e project has no DOM types: what this needs of the page's globals.
    const g = globalThis as unknown as {
      document: unknown;
      axe: {
        run(context: unknown, options: unknown): Promise<{ violations: AxeViolation[] }>;
      };
    };
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

/**
 * Checks every screen of the context's pages as the journey leaves it: before each page.goto and
 * before the context closes, the page as the journey last saw it (loaded, with whatever dialog or
 * menu it opened) is checked. Screens reached by clicking, and dialogs closed before the next
 * navigation, are checked by the journey's own expectAccessible calls.
 */
export function checkScreensOnLeave(context: BrowserContext, isApp: (url: string) => boolean): void {
  const checkLeaving = async (page: Page) => {
    const url = page.url();
    if (page.isClosed() || !isApp(url)) return;
    await expectAccessible(page, new URL(url).pathname);
  };
  context.on('page', (page) => {
    const goto = page.goto.bind(page);
    page.goto = async (url, options) => {
      await checkLeaving(page);
      return goto(url, options);
    };
  });
  const close = context.close.bind(context);
  context.close = async (options) => {
    try {
      for (const page of context.pages()) await checkLeaving(page);
    } finally {
      await close(options);
    }
  };
}
