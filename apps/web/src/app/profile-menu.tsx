import { LANGUAGES, PROFILE_MENU_CLOSE_MS } from '@railwatt/contracts';
import { Box, Paper, Stack, UnstyledButton } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { setLanguage } from '../lib/i18n';

/**
 * The profile menu: the user's display name opens it; it offers the six languages and closes 100 ms
 * after focus leaves it (product.md §9), so moving between its items does not close it.
 */
export function ProfileMenu({ displayName }: { displayName: string }) {
  const { t, i18n } = useTranslation();
  const [open, setOpen] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const cancelClose = (): void => {
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = null;
  };
  useEffect(() => cancelClose, []);

  return (
    <Box
      pos="relative"
      onBlur={() => {
        cancelClose();
        timer.current = setTimeout(() => setOpen(false), PROFILE_MENU_CLOSE_MS);
      }}
      onFocus={cancelClose}
    >
      <UnstyledButton
        data-testid="user-display-name"
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
        fw={600}
      >
        {displayName}
      </UnstyledButton>
      {open ? (
        <Paper
          role="menu"
          aria-label={t('shell.profileMenu')}
          shadow="md"
          withBorder
          p="xs"
          pos="absolute"
          right={0}
          top="100%"
          style={{ zIndex: 250 }}
        >
          <Stack gap={4}>
            {LANGUAGES.map((lng) => (
              <UnstyledButton
                key={lng}
                role="menuitemradio"
                aria-checked={i18n.language === lng}
                lang={lng}
                fw={i18n.language === lng ? 700 : 400}
                onClick={() => void setLanguage(lng)}
              >
                {t(`language.${lng}`)}
              </UnstyledButton>
            ))}
          </Stack>
        </Paper>
      ) : null}
    </Box>
  );
}
