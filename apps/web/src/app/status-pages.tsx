import { Anchor, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageTitle } from '../components/ui/page-title';
import type { ScreenProps } from '../lib/routes';

export function UnauthorizedPage(props: ScreenProps) {
  const { t } = useTranslation();
  return (
    <Stack gap="xs">
      <PageTitle {...props} />
      <Text>{t('shell.unauthorizedText')}</Text>
      <Anchor component={Link} to="/">
        {t('shell.backHome')}
      </Anchor>
    </Stack>
  );
}

export function NotFoundPage(props: ScreenProps) {
  const { t } = useTranslation();
  return (
    <Stack gap="xs">
      <PageTitle {...props} />
      <Text>{t('shell.notFoundText')}</Text>
      <Anchor component={Link} to="/">
        {t('shell.backHome')}
      </Anchor>
    </Stack>
  );
}
