import { Alert, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ScreenProps } from '../../lib/routes';
import { PageTitle } from './page-title';

/** The visible notice on a screen (or part of one) that a later issue builds. */
export function NotBuilt({ what }: { what?: string }) {
  const { t } = useTranslation();
  return (
    <Alert data-testid="not-built" color="gray" variant="light" title={t('shell.notBuiltTitle')}>
      {what ? t('shell.notBuiltPart', { what }) : t('shell.notBuilt')}
    </Alert>
  );
}

/** The placeholder screen: its title and the notice. */
export function NotBuiltPage(props: ScreenProps) {
  return (
    <Stack gap="xs">
      <PageTitle {...props} />
      <NotBuilt />
    </Stack>
  );
}
