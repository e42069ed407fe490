import { useState } from 'react';
import { Button, List, Stack, Text } from '@mantine/core';
import { TIME_SERIES_TYPE_NAMES } from '@railwatt/contracts';
import { useSettlementT } from '../hooks/use-settlement-t';

/** How many texts show before the rest fold away behind "n more". */
export const FOLDED_AFTER = 3;

const SERIES_KEY = new RegExp(
  `\\b(${[...TIME_SERIES_TYPE_NAMES].sort((a, b) => b.length - a.length).join('|')})\\b`,
  'g',
);

/**
 * A server text with the time-series type names it quotes (`cebd_active_energy_consumed`) as words in
 * the user's language ("active energy consumed (CEBD)"); a name without a translation loses its
 * underscores.
 */
export function useReadableKeys(): (text: string) => string {
  const { t } = useSettlementT();
  return (text) =>
    text.replace(SERIES_KEY, (name) => t(`seriesTypes.${name}`, { defaultValue: name.replace(/_/g, ' ') }));
}

/**
 * A list of texts (warnings, a result's messages) of which the first FOLDED_AFTER show and the rest
 * fold behind a button saying how many more there are ("3 more"), and fold back again.
 */
export function FoldedTexts({ texts, 'data-testid': testId }: { texts: readonly string[]; 'data-testid'?: string }) {
  const { t } = useSettlementT();
  const readable = useReadableKeys();
  const [open, setOpen] = useState(false);
  const hidden = Math.max(0, texts.length - FOLDED_AFTER);
  const shown = open ? texts : texts.slice(0, FOLDED_AFTER);
  if (texts.length === 0) return null;
  return (
    <Stack gap={2} data-testid={testId}>
      {texts.length === 1 ? (
        <Text size="sm">{readable(texts[0]!)}</Text>
      ) : (
        <List size="sm" spacing={2}>
          {shown.map((text, i) => (
            <List.Item key={i}>{readable(text)}</List.Item>
          ))}
        </List>
      )}
      {hidden > 0 && (
        <Button
          size="compact-xs"
          variant="subtle"
          w="fit-content"
          aria-expanded={open}
          onClick={() => setOpen((o) => !o)}
          data-testid="folded-toggle"
        >
          {open ? t('folded.less') : t('folded.more', { count: hidden })}
        </Button>
      )}
    </Stack>
  );
}

/** A result's message, one text per line or "; "-separated part, folded after the first few. */
export function ResultMessage({ message }: { message: string }) {
  const texts = message
    .split(/\n|;\s+/)
    .map((part) => part.trim())
    .filter(Boolean);
  return <FoldedTexts texts={texts} data-testid="settlement-result-message" />;
}
