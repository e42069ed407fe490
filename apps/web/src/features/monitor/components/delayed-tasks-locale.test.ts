// @vitest-environment node
import { DELAYED_TASK_STATUSES, LANGUAGES } from '@railwatt/contracts';
import { describe, expect, it } from 'vitest';
import { loadMessages } from '../../../lib/i18n';

function keys(tree: unknown, prefix = ''): string[] {
  if (typeof tree !== 'object' || tree === null) return [prefix];
  return Object.entries(tree).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}

type Texts = { status: Record<string, string>; action: Record<string, string> };
const textsOf = async (lng: (typeof LANGUAGES)[number]) =>
  ((await loadMessages(lng)) as Record<string, Texts>).delayedTasks!;

describe('delayed tasks texts (locales/<lng>/delayed-tasks.json)', () => {
  it('English names every task status', async () => {
    expect(Object.keys((await textsOf('en')).status).sort()).toEqual([...DELAYED_TASK_STATUSES].sort());
  });

  it.each(LANGUAGES.filter((l) => l !== 'en'))('%s has every key of English, translated', async (lng) => {
    const en = await textsOf('en');
    const other = await textsOf(lng);
    expect(keys(other).sort()).toEqual(keys(en).sort());
    expect(other.action.runNow).not.toBe(en.action.runNow);
    expect(other.status.waiting).not.toBe(en.status.waiting);
  });
});
