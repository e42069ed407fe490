import { useMemo, useState } from 'react';
import { Alert, Button, Group, Stack, Text, Title } from '@mantine/core';
import { timeSeriesCalls } from '@railwatt/contracts';
import { PageTitle } from '../../../../components/ui/page-title';
import {
  createTimeSeriesUpload,
  fileExtension,
  ImportErrorScreen,
  JobProgress,
  singleFailure,
  UploadDialog,
  type UploadFileResult,
} from '../../../../components/ui/upload-dialog';
import { apiErrorMessages } from '../../../../lib/errors';
import type { ScreenProps } from '../../../../lib/routes';
import { useNamespaceT } from '../../../../lib/use-namespace-t';
import { useImportPrices } from '../../api/timeseries';

/**
 * Nord Pool price files: the spot files of Nord Pool's FTP service are .sdv; a .csv export of the same
 * table is also read (our reading: the server's nordpool format takes both).
 */
const NORDPOOL_EXTENSIONS = ['sdv', 'csv'];
const NORDPOOL_ACCEPT = {
  'text/csv': ['.csv'],
  'text/plain': ['.sdv'],
  'application/octet-stream': ['.sdv'],
};
const takesPrices = (file: File): boolean => NORDPOOL_EXTENSIONS.includes(fileExtension(file.name));

/**
 * /administration/import-prices (administrator only, product.md §6 "price import"): upload a Nord Pool
 * price file (POST /automaticfileimport/importnordpool, its import job followed in the dialog), or
 * fetch the files waiting on the enabled Nord Pool interface routes (GET
 * /integration/prices/import-prices), one job per file, each followed below the button.
 */
export function ImportPricesPage(props: ScreenProps) {
  const { t, tRoot } = useNamespaceT('timeseriesUpload');
  const [opened, setOpened] = useState(false);
  const [importError, setImportError] = useState<UploadFileResult | null>(null);
  const upload = useMemo(() => createTimeSeriesUpload(t, () => timeSeriesCalls.nordpoolImport), [t]);
  const importPrices = useImportPrices();
  const started = importPrices.data?.jobIds ?? [];

  const onComplete = (results: UploadFileResult[]) => {
    const failed = singleFailure(results);
    setImportError(failed);
    if (failed) setOpened(false);
  };

  return (
    <Stack gap="md">
      <PageTitle {...props} />
      <Text>{t('prices.intro')}</Text>
      <Group>
        <Button
          onClick={() => {
            setImportError(null);
            setOpened(true);
          }}
        >
          {t('prices.open')}
        </Button>
        <Button variant="outline" onClick={() => importPrices.mutate()} loading={importPrices.isPending}>
          {t('prices.import_button')}
        </Button>
      </Group>
      {importError && <ImportErrorScreen result={importError} t={t} />}

      {importPrices.isError && (
        <Alert color="red" data-testid="import-prices-error">
          {apiErrorMessages(importPrices.error, tRoot).join(' ') || t('prices.import_failed')}
        </Alert>
      )}
      {importPrices.isSuccess && (
        <Stack gap="xs" data-testid="import-prices-jobs">
          <Title order={2} size="h4">
            {started.length > 0 ? t('prices.started', { count: started.length }) : t('prices.none_started')}
          </Title>
          {importPrices.data.success === false && <Alert color="red">{t('prices.import_failed')}</Alert>}
          {started.map((jobId) => (
            <JobProgress key={jobId} jobId={jobId} />
          ))}
        </Stack>
      )}

      <UploadDialog
        opened={opened}
        onClose={() => setOpened(false)}
        title={t('prices.dialog_title')}
        upload={upload}
        accept={NORDPOOL_ACCEPT}
        acceptFile={takesPrices}
        hint={t('prices.accepted')}
        renderJob={(jobId, onStatus) => <JobProgress jobId={jobId} onStatus={onStatus} />}
        onComplete={onComplete}
      />
    </Stack>
  );
}
