import { Anchor, Group, Text, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, NavLink } from 'react-router';
import type { AppAuth } from '../lib/auth/auth';
import { useMarketStore } from '../lib/stores/market-store';
import { AreaSelector } from './area-selector';
import { logoTarget, menuItems } from './menu';
import { ProfileMenu } from './profile-menu';

/** The header (product.md §1): logo, main menu, area selector, time zone, the user and log-out. */
export function Header({ auth }: { auth: AppAuth }) {
  const { t } = useTranslation();
  const area = useMarketStore((s) => s.area);
  const roles = useMarketStore((s) => s.rolesInArea);
  const timeZone = useMarketStore((s) => s.timeZone);
  const kind = area?.kind ?? null;
  return (
    <Group
      justify="space-between"
      px="md"
      py="xs"
      wrap="nowrap"
      style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}
    >
      <Group gap="lg" wrap="nowrap">
        <Anchor component={Link} to={logoTarget(roles, kind)} fw={800} size="lg" aria-label={t('shell.home')}>
          Railwatt
        </Anchor>
        <nav aria-label={t('shell.mainMenu')}>
          <Group gap="md">
            {menuItems(roles, kind).map((item) => (
              // `end`: the dashboard at / is not "active" on every page below it.
              <Anchor key={item.to} component={NavLink} to={item.to} end={item.to === '/'}>
                {t(item.labelKey)}
              </Anchor>
            ))}
          </Group>
        </nav>
      </Group>
      <Group gap="md" wrap="nowrap">
        <AreaSelector />
        {/* A p may not carry aria-label (axe aria-prohibited-attr): the label is text for screen readers. */}
        <Text size="sm" c="dimmed" data-testid="selected-timezone" title={t('shell.timeZone')}>
          <VisuallyHidden>{t('shell.timeZone')}: </VisuallyHidden>
          {timeZone ?? ''}
        </Text>
        <ProfileMenu displayName={auth.displayName} />
        <Anchor
          href="/"
          data-testid="logout"
          onClick={(event) => {
            event.preventDefault();
            auth.signOut();
          }}
        >
          {t('shell.logout')}
        </Anchor>
      </Group>
    </Group>
  );
}
