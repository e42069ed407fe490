import { useMemo, useState } from 'react';
import { Alert, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { UploadDialog, UploadFailureList, type UploadFileResult } from '../../../components/ui/upload-dialog';
import { createEntitiesUpload } from '../api/fleet-mutations';
import { fleetKeys } from '../api/fleet-queries';
import { useFleetT } from '../hooks/use-fleet-t';
import type { ScreenProps } from '../../../lib/routes';
import { FleetPageTitle } from './fleet-page-title';

const XLSX = { 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': ['.xlsx'] };

/**
 * /fleet/import: the entities upload dialog (product.md §4/§5). A single file that fails goes to the
 * import error screen below the dialog; with several files the dialog lists each file's failures.
 * The error screen lives in this page's state, so leaving the import screen clears it.
 */
export function FleetImportPage(props: Partial<ScreenProps>) {
  const { t } = useFleetT();
  const queryClient = useQueryClient();
  const [opened, setOpened] = useState(true);
  const [importError, setImportError] = useState<UploadFileResult | null>(null);
  const upload = useMemo(() => createEntitiesUpload((key) => t(key)), [t]);

  const onComplete = (results: UploadFileResult[]) => {
    if (results.some((r) => r.outcome.status !== 'failed')) {
      void queryClient.invalidateQueries({ queryKey: fleetKeys.lists() });
    }
    const [only] = results;
    if (results.length === 1 && only && only.outcome.status === 'failed') {
      setImportError(only);
      setOpened(false);
    } else {
      setImportError(null);
    }
  };

  return (
    <Stack gap="md">
      <FleetPageTitle screen={props} fallbackKey="import.title" />
      <Text>{t('import.intro')}</Text>
      <Group>
        <Button
          onClick={() => {
            setImportError(null);
            setOpened(true);
          }}
        >
          {t('import.open')}
        </Button>
      </Group>

      {importError && (
        <Stack gap="xs" data-testid="import-error-screen">
          <Title order={2}>{t('import.error_title')}</Title>
          <Alert color="red">
            {importError.outcome.message ?? t('import.file_failed', { file: importError.fileName })}
          </Alert>
          {importError.outcome.failures.length > 0 && <UploadFailureList failures={importError.outcome.failures} />}
        </Stack>
      )}

      <UploadDialog
        opened={opened}
        onClose={() => setOpened(false)}
        title={t('import.dialog_title')}
        upload={upload}
        accept={XLSX}
        onComplete={onComplete}
      />
    </Stack>
  );
}
