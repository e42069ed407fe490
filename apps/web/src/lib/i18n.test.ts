// @vitest-environment node
import { ERROR_CODES, LANGUAGES } from '@railwatt/contracts';
import { describe, expect, it } from 'vitest';
import { loadMessages } from './i18n';

function keys(tree: unknown, prefix = ''): string[] {
  if (typeof tree !== 'object' || tree === null) return [prefix];
  return Object.entries(tree).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}

/** The shell's own files (features bring their own and fall back to English until translated). */
const SHELL_ROOTS = [
  'shell',
  'menu',
  'language',
  'modal',
  'dashboard',
  'routes',
  'entities',
  'processes',
  'reports',
  'api_error_code',
];

describe('translations', () => {
  it('English api_error_code texts are the catalogue verbatim', async () => {
    expect((await loadMessages('en')).api_error_code).toEqual(ERROR_CODES);
  });

  it.each(LANGUAGES.filter((l) => l !== 'en'))('%s has every shell key of English, translated', async (lng) => {
    const en = (await loadMessages('en')) as Record<string, Record<string, string>>;
    const other = (await loadMessages(lng)) as Record<string, Record<string, string>>;
    const english = keys(en).filter((k) => SHELL_ROOTS.includes(k.split('.')[0]!));
    const own = new Set(keys(other));
    expect(english.filter((k) => !own.has(k))).toEqual([]);
    expect(other.shell!.selectArea).not.toBe(en.shell!.selectArea);
    expect(other.api_error_code!.unknown).not.toBe(en.api_error_code!.unknown);
  });
});
