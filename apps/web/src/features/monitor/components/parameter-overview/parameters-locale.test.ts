// @vitest-environment node
import { INVALIDATE_FAILED_MESSAGE, LANGUAGES, MESSAGES, PARAMETER_TYPE_NAMES } from '@railwatt/contracts';
import { describe, expect, it } from 'vitest';
import { loadMessages } from '../../../../lib/i18n';

function keys(tree: unknown, prefix = ''): string[] {
  if (typeof tree !== 'object' || tree === null) return [prefix];
  return Object.entries(tree).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}

type Texts = { types: Record<string, string>; messages: Record<string, string>; write: Record<string, string> };
const textsOf = async (lng: (typeof LANGUAGES)[number]) =>
  ((await loadMessages(lng)) as Record<string, Texts>).parameters!;

describe('parameter overview texts (locales/<lng>/parameters.json)', () => {
  it('English names every parameter type and has the spec’s messages verbatim', async () => {
    const en = await textsOf('en');
    expect(Object.keys(en.types).sort()).toEqual([...PARAMETER_TYPE_NAMES].sort());
    expect(en.messages.noEntitiesSelected).toBe(MESSAGES.noEntitiesSelected);
    // calls.md §8 writes the placeholder {name}; i18next interpolates {{name}}.
    expect(en.messages.invalidateFailed).toBe(INVALIDATE_FAILED_MESSAGE.replace('{name}', '{{name}}'));
  });

  it.each(LANGUAGES.filter((l) => l !== 'en'))('%s has every key of English, translated', async (lng) => {
    const en = await textsOf('en');
    const other = await textsOf(lng);
    expect(keys(other).sort()).toEqual(keys(en).sort());
    expect(other.types.on_account_energy).not.toBe(en.types.on_account_energy);
    expect(other.messages.invalidateFailed).not.toBe(en.messages.invalidateFailed);
    expect(other.write.remove).not.toBe(en.write.remove);
  });
});
