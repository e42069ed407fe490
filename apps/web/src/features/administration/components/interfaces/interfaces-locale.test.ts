// @vitest-environment node
import { INTERFACE_ROUTE_MESSAGES, INTERFACE_TEST_OUTCOMES, INTERFACE_TYPES, LANGUAGES } from '@railwatt/contracts';
import { describe, expect, it } from 'vitest';
import { loadMessages } from '../../../../lib/i18n';

function keys(tree: unknown, prefix = ''): string[] {
  if (typeof tree !== 'object' || tree === null) return [prefix];
  return Object.entries(tree).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}

type Tree = Record<string, Record<string, Record<string, string>>>;

describe('interfaces texts (locales/<lng>/interfaces.json)', () => {
  it('English holds the contract rule messages verbatim, a label for every interface type and test outcome', async () => {
    const en = ((await loadMessages('en')) as Tree).interfaces!;
    expect(en.rules).toMatchObject(INTERFACE_ROUTE_MESSAGES);
    expect(Object.keys(en.type!).sort()).toEqual([...INTERFACE_TYPES].sort());
    const outcomes = (en.test as unknown as Record<string, Record<string, string>>).outcome!;
    expect(Object.keys(outcomes).sort()).toEqual([...INTERFACE_TEST_OUTCOMES].sort());
  });

  it.each(LANGUAGES.filter((l) => l !== 'en'))('%s has every key of English, translated', async (lng) => {
    const en = ((await loadMessages('en')) as Tree).interfaces!;
    const other = ((await loadMessages(lng)) as Tree).interfaces!;
    expect(keys(other).sort()).toEqual(keys(en).sort());
    expect(other.form!.test_connection).not.toBe(en.form!.test_connection);
    expect(other.rules!.backupPathNotAllowed).not.toBe(en.rules!.backupPathNotAllowed);
  });
});
