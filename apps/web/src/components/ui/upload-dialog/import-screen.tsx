import { useState, type ReactNode } from 'react';
import { Alert, Button, Group, Stack, Text, Title } from '@mantine/core';
import { UploadDialog, UploadFailureList, type UploadFileResult } from './upload-dialog';
import type { UploadFn } from './upload-state';

/** The caller's translate function, bound to its namespace (fleet, entityKit, admin ...). */
type ImportTranslate = (key: string, options?: Record<string, unknown>) => string;

const XLSX = { 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': ['.xlsx'] };

/**
 * The import error screen (product.md §4/§5): why a single uploaded file failed as a whole, and its
 * rows' failures. Texts: `<prefix>.error_title` and `<prefix>.file_failed` of the caller's namespace.
 */
export function ImportErrorScreen({
  result,
  t,
  prefix = 'import',
}: {
  result: UploadFileResult;
  t: ImportTranslate;
  prefix?: string;
}) {
  return (
    <Stack gap="xs" data-testid="import-error-screen">
      <Title order={2}>{t(`${prefix}.error_title`)}</Title>
      <Alert color="red">{result.outcome.message ?? t(`${prefix}.file_failed`, { file: result.fileName })}</Alert>
      {result.outcome.failures.length > 0 && <UploadFailureList failures={result.outcome.failures} />}
    </Stack>
  );
}

/** What to show after an upload: the error screen for a single failed file, nothing otherwise. */
export function singleFailure(results: UploadFileResult[]): UploadFileResult | null {
  const [only] = results;
  return results.length === 1 && only && only.outcome.status === 'failed' ? only : null;
}

export interface ImportScreenProps {
  /** The page's h1. */
  title: ReactNode;
  /** Texts 'import.intro', 'import.open', 'import.dialog_title', 'import.error_title', 'import.file_failed'. */
  t: ImportTranslate;
  upload: UploadFn;
  /** At least one file was imported: the caller invalidates what it lists. */
  onImported: () => void;
}

/**
 * An import page: the xlsx upload dialog, open on arrival. A single file that fails goes to the import
 * error screen below the dialog; with several files the dialog lists each file's failures. The error
 * screen lives in this page's state, so leaving the page clears it.
 */
export function ImportScreen({ title, t, upload, onImported }: ImportScreenProps) {
  const [opened, setOpened] = useState(true);
  const [importError, setImportError] = useState<UploadFileResult | null>(null);

  const onComplete = (results: UploadFileResult[]) => {
    if (results.some((r) => r.outcome.status !== 'failed')) onImported();
    const failed = singleFailure(results);
    setImportError(failed);
    if (failed) setOpened(false);
  };

  return (
    <Stack gap="md">
      {title}
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
      {importError && <ImportErrorScreen result={importError} t={t} />}
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
