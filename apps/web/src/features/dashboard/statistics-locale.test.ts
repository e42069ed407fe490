// @vitest-environment node
import { COMPLETENESS_MESSAGE, DASHBOARD_CATEGORIES, LANGUAGES, OFFSET_LAG_STAGES } from '@railwatt/contracts';
import { describe, expect, it } from 'vitest';
import { loadMessages } from '../../lib/i18n';

function keys(tree: unknown, prefix = ''): string[] {
  if (typeof tree !== 'object' || tree === null) return [prefix];
  return Object.entries(tree).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}

type Tree = Record<string, Record<string, Record<string, string>>>;

describe('statistics texts (locales/<lng>/statistics.json)', () => {
  it('English names every dashboard category and offset-lag stage, and has the threshold rule verbatim', async () => {
    const messages = (await loadMessages('en')) as Tree;
    const en = messages.statistics!;
    expect(Object.keys(en.category!).sort()).toEqual([...DASHBOARD_CATEGORIES].sort());
    expect(Object.keys(en.stage!).sort()).toEqual([...OFFSET_LAG_STAGES].sort());
    expect(messages.completeness!.thresholdMin).toBe(COMPLETENESS_MESSAGE);
  });

  it.each(LANGUAGES.filter((l) => l !== 'en'))('%s has every key of English, translated', async (lng) => {
    const en = (await loadMessages('en')) as Tree;
    const other = (await loadMessages(lng)) as Tree;
    for (const ns of ['statistics', 'completeness'] as const) {
      expect(keys(other[ns]).sort()).toEqual(keys(en[ns]).sort());
    }
    expect(other.statistics!.cebd!.title).not.toBe(en.statistics!.cebd!.title);
    expect(other.completeness!.thresholdMin).not.toBe(en.completeness!.thresholdMin);
  });
});
