import { Anchor, Box, Group, NavLink, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { useMarketStore } from '../lib/stores/market-store';
import { groupLinks, sectionNav, type SectionLink } from './section-nav';

const BORDER = '1px solid var(--mantine-color-gray-3)';

/**
 * The section's second level around the page: links to the pages of the section the user is in
 * (section-nav.ts decides which), the current one marked with aria-current="page". Plain links in a
 * named nav landmark rather than ARIA tabs: each entry loads a page, it does not switch a panel.
 * A section offering the user fewer than two pages shows none: one link leads nowhere new.
 *
 * A short second level is a row below the header; a section whose pages carry groups (Administration,
 * up to nineteen pages) is a side menu beside the page, its links listed under their headings, so a
 * long list stays readable instead of wrapping into rows of links.
 */
export function SectionMenu({ children }: { children?: ReactNode }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const market = useMarketStore();
  const nav = sectionNav(pathname, market.rolesInArea, market.area?.kind ?? null, undefined, market);
  const links = nav && nav.links.length >= 2 ? nav.links : [];
  const label = nav ? t('shell.sectionMenu', { section: t(nav.labelKey) }) : '';
  const title = (link: SectionLink): string =>
    t(link.titleKey, Object.fromEntries(Object.entries(link.titleArgs ?? {}).map(([name, key]) => [name, t(key)])));
  const groups = groupLinks(links);
  const side = groups.some((g) => g.labelKey !== null);

  // One shape whatever the section offers, the page always at the same place in the tree: moving
  // between sections does not remount the page's shell (its refs, the guard's from-route).
  return (
    <Box style={{ display: 'flex', flex: 1, alignItems: 'stretch' }}>
      {side ? (
        <Box component="nav" aria-label={label} w={240} py="sm" style={{ flexShrink: 0, borderRight: BORDER }}>
          <Stack gap="sm">
            {groups.map((group) => {
              const headingId = `section-group-${group.labelKey ?? 'pages'}`;
              return (
                <Box key={headingId}>
                  <Text id={headingId} size="xs" fw={700} tt="uppercase" px="md" pb={2} c="gray.8">
                    {group.labelKey ? t(group.labelKey) : label}
                  </Text>
                  <Box component="ul" aria-labelledby={headingId} m={0} p={0} style={{ listStyle: 'none' }}>
                    {group.links.map((link) => (
                      <li key={link.to}>
                        <NavLink
                          component={Link}
                          to={link.to}
                          label={title(link)}
                          active={link.active}
                          aria-current={link.active ? 'page' : undefined}
                          py={4}
                        />
                      </li>
                    ))}
                  </Box>
                </Box>
              );
            })}
          </Stack>
        </Box>
      ) : null}
      <Box style={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
        {!side && links.length > 0 ? (
          <Box component="nav" aria-label={label} px="md" style={{ borderBottom: BORDER }}>
            <Group component="ul" gap="lg" m={0} p={0} style={{ listStyle: 'none', rowGap: 0 }}>
              {links.map((link) => (
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
                    {title(link)}
                  </Anchor>
                </li>
              ))}
            </Group>
          </Box>
        ) : null}
        {children}
      </Box>
    </Box>
  );
}
