import { Anchor, Box, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { useMarketStore } from '../lib/stores/market-store';
import { sectionNav } from './section-nav';

/**
 * The section's second level, below the header: links to the pages of the section the user is in
 * (section-nav.ts decides which), the current one marked with aria-current="page". Plain links in a
 * named nav landmark rather than ARIA tabs: each entry loads a page, it does not switch a panel.
 * A section offering the user fewer than two pages shows none: one link leads nowhere new.
 */
export function SectionMenu() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const market = useMarketStore();
  const nav = sectionNav(pathname, market.rolesInArea, market.area?.kind ?? null, undefined, market);
  if (!nav || nav.links.length < 2) return null;
  const section = t(nav.labelKey);
  return (
    <Box
      component="nav"
      aria-label={t('shell.sectionMenu', { section })}
      px="md"
      style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}
    >
      <Group component="ul" gap="lg" m={0} p={0} style={{ listStyle: 'none', rowGap: 0 }}>
        {nav.links.map((link) => {
          const args = Object.fromEntries(Object.entries(link.titleArgs ?? {}).map(([name, key]) => [name, t(key)]));
          return (
            <li key={link.to}>
              <Anchor
                component={Link}
                to={link.to}
                aria-current={link.active ? 'page' : undefined}
                size="sm"
                fw={link.active ? 700 : 400}
                underline="never"
                display="inline-block"
                py={8}
                style={{
                  borderBottom: `2px solid ${link.active ? 'var(--mantine-primary-color-filled)' : 'transparent'}`,
                }}
              >
                {t(link.titleKey, args)}
              </Anchor>
            </li>
          );
        })}
      </Group>
    </Box>
  );
}
