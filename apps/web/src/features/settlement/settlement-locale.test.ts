// @vitest-environment node
import { LANGUAGES, PROCEDURE_RESULT_STATUSES, SETTLEMENT_CATEGORIES } from '@railwatt/contracts';
import { describe, expect, it } from 'vitest';
import { loadMessages } from '../../lib/i18n';

function keys(tree: unknown, prefix = ''): string[] {
  if (typeof tree !== 'object' || tree === null) return [prefix];
  return Object.entries(tree).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}

type Tree = Record<string, Record<string, Record<string, string>>>;

describe('settlement texts (locales/<lng>/settlement.json)', () => {
  it('English names every result status and energy category, and has the spec’s warning verbatim', async () => {
    const en = ((await loadMessages('en')) as Tree).settlement!;
    expect(Object.keys(en.status!).sort()).toEqual([...PROCEDURE_RESULT_STATUSES].sort());
    expect(Object.keys(en.categories!).sort()).toEqual([...SETTLEMENT_CATEGORIES, 'supply'].sort());
    expect(en.process!.pricesNotApproved).toBe('Prices and supply for the month are not approved');
  });

  it.each(LANGUAGES.filter((l) => l !== 'en'))('%s has every key of English, translated', async (lng) => {
    const en = ((await loadMessages('en')) as Tree).settlement!;
    const other = ((await loadMessages(lng)) as Tree).settlement!;
    expect(keys(other).sort()).toEqual(keys(en).sort());
    expect(other.process!.pricesNotApproved).not.toBe(en.process!.pricesNotApproved);
    expect(other.balance!.closes).not.toBe(en.balance!.closes);
    expect(other.verification!.tableTitle).not.toBe(en.verification!.tableTitle);
  });
});
