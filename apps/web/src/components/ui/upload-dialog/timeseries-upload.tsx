import { useMemo, useRef, useState } from 'react';
import { Button, Group, SegmentedControl, Stack, Text } from '@mantine/core';
import { EXCEL_IMPORT_FIELD, TENANT_NAME_HEADER, timeSeriesCalls, type JobRun } from '@railwatt/contracts';
import { api } from '../../../lib/api';
import { ApiError, isCancelled } from '../../../lib/errors';
import { useMarketStore } from '../../../lib/stores/market-store';
import { useNamespaceT } from '../../../lib/use-namespace-t';
import { ImportErrorScreen, singleFailure } from './import-screen';
import { JobProgress } from './job-progress';
import { UploadDialog, type UploadFileResult } from './upload-dialog';
import { outcomeFromTimeSeriesAnswer, type UploadFn } from './upload-state';

/** The multipart time-series calls: each answers timeSeriesUploadResultSchema. */
export type TimeSeriesUploadCall = (typeof timeSeriesCalls)[
  'cebdImport' | 'excelImport' | 'csvImport' | 'ediImport' | 'sdvImport' | 'trainRunImport' | 'nordpoolImport'];

/**
 * What an .xml file is. product.md §5 picks the endpoint by extension (xlsx, edi, sdv, csv); CEBD
 * files and train-run files are both XML and are our additions, so our reading is a "File kind" choice
 * in the dialog that applies to every .xml file of the upload: CEBD (default) -> cebdImport, train
 * runs -> trainRunImport. The other extensions ignore it.
 */
export type XmlKind = 'cebd' | 'trainrun';
export const XML_KINDS: readonly XmlKind[] = ['cebd', 'trainrun'];

/** The extensions the time-series dialog takes; other files are not listed (calls.md §5). */
export const TIME_SERIES_EXTENSIONS = ['xlsx', 'edi', 'sdv', 'csv', 'xml'] as const;

/** Lower-cased extension of a file name without the dot ('' when it has none). */
export const fileExtension = (name: string): string => /\.([^./\\]+)$/.exec(name)?.[1]?.toLowerCase() ?? '';

/** The endpoint of a time-series file, by extension (product.md §5); null for a file it does not take. */
export function timeSeriesCallFor(fileName: string, xmlKind: XmlKind): TimeSeriesUploadCall | null {
  switch (fileExtension(fileName)) {
    case 'xlsx':
      return timeSeriesCalls.excelImport;
    case 'edi':
      return timeSeriesCalls.ediImport;
    case 'sdv':
      return timeSeriesCalls.sdvImport;
    case 'csv':
      return timeSeriesCalls.csvImport;
    case 'xml':
      return xmlKind === 'cebd' ? timeSeriesCalls.cebdImport : timeSeriesCalls.trainRunImport;
    default:
      return null;
  }
}

/** Picker filter: MIME types with the extensions (the browser's dialog; dropped files pass acceptFile). */
export const TIME_SERIES_ACCEPT: Record<string, string[]> = {
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': ['.xlsx'],
  'text/csv': ['.csv'],
  'application/xml': ['.xml'],
  'text/xml': ['.xml'],
  'application/edifact': ['.edi'],
  // .edi and .sdv have no registered type; browsers report them as plain or unknown bytes.
  'text/plain': ['.edi', '.sdv'],
  'application/octet-stream': ['.edi', '.sdv'],
};

type Translate = (key: string) => string;

/**
 * The message of a file the server refused as a whole (calls.md §8 "Upload failures"): on 400 the
 * server's own message when it gives one (it is more specific), else 'Something is wrong with uploaded
 * data'; 401/403 'Not authorized'; 500, no answer or anything else 'Failed to upload. Ask administrator
 * for help'. Keys: timeseriesUpload.error.*.
 */
export function uploadFailureMessage(error: unknown, t: Translate): string {
  if (error instanceof ApiError && error.status === 400) {
    const specific = [error.envelope?.message, ...(error.envelope?.errors ?? []).map((e) => e.message)]
      .map((m) => m?.trim())
      .filter((m): m is string => !!m);
    return specific.length > 0 ? specific.join('; ') : t('error.bad_data');
  }
  if (error instanceof ApiError && (error.status === 401 || error.status === 403)) return t('error.not_authorized');
  return t('error.unknown');
}

/**
 * One request per file to the call `callFor` picks, with byte progress; the answer becomes the file's
 * outcome (finished, finished_async with its jobs, or failed with the sheets' failures).
 */
export function createTimeSeriesUpload(t: Translate, callFor: (file: File) => TimeSeriesUploadCall | null): UploadFn {
  return async (file, onProgress) => {
    const call = callFor(file);
    if (!call) return { status: 'failed', failures: [], message: t('error.unsupported') };
    const form = new FormData();
    form.append(EXCEL_IMPORT_FIELD, file, file.name);
    try {
      // A CEBD file names the area it is for (tenant-name); the server checks it against the selected one.
      const areaName = useMarketStore.getState().area?.name;
      const headers = call === timeSeriesCalls.cebdImport && areaName ? { [TENANT_NAME_HEADER]: areaName } : undefined;
      return outcomeFromTimeSeriesAnswer(await api.callUpload(call, form, { onProgress, headers }));
    } catch (error) {
      if (isCancelled(error)) throw error;
      return { status: 'failed', failures: [], message: uploadFailureMessage(error, t) };
    }
  };
}

const takesTimeSeries = (file: File): boolean =>
  (TIME_SERIES_EXTENSIONS as readonly string[]).includes(fileExtension(file.name));

export interface TimeSeriesUploadDialogProps {
  opened: boolean;
  onClose: () => void;
  onComplete?: (results: UploadFileResult[]) => void;
  /** A followed import job ended (success, failure or dead). */
  onJobFinished?: (job: JobRun) => void;
}

/**
 * The time-series upload dialog (modal type timeseries_upload): at most 5 files, each sent to the
 * endpoint of its extension; a file stored for a background job shows as accepted and its job's
 * progress follows below it until the job ends.
 */
export function TimeSeriesUploadDialog({ opened, onClose, onComplete, onJobFinished }: TimeSeriesUploadDialogProps) {
  const { t } = useNamespaceT('timeseriesUpload');
  const [xmlKind, setXmlKind] = useState<XmlKind>('cebd');
  // The upload reads the kind when it sends a file, so a change before Upload counts.
  const kindRef = useRef(xmlKind);
  kindRef.current = xmlKind;
  const upload = useMemo(() => createTimeSeriesUpload(t, (file) => timeSeriesCallFor(file.name, kindRef.current)), [t]);
  return (
    <UploadDialog
      opened={opened}
      onClose={onClose}
      title={t('dialog_title')}
      modalType="timeseries_upload"
      upload={upload}
      accept={TIME_SERIES_ACCEPT}
      acceptFile={takesTimeSeries}
      hint={t('accepted')}
      renderJob={(jobId, onStatus) => <JobProgress jobId={jobId} onFinished={onJobFinished} onStatus={onStatus} />}
      onComplete={onComplete}
    >
      <Stack gap={4}>
        <Text size="sm" fw={500} id="timeseries-xml-kind">
          {t('xml_kind.label')}
        </Text>
        <SegmentedControl
          aria-labelledby="timeseries-xml-kind"
          value={xmlKind}
          onChange={(value) => setXmlKind(value as XmlKind)}
          data={XML_KINDS.map((kind) => ({ value: kind, label: t(`xml_kind.${kind}`) }))}
        />
      </Stack>
    </UploadDialog>
  );
}

export interface TimeSeriesUploadButtonProps {
  /** Open the dialog on arrival (the administration import page). */
  initiallyOpened?: boolean;
  /** At least one file was imported or accepted: the caller refreshes what it lists (the data log). */
  onUploaded?: () => void;
  /** A followed import job ended: the caller refreshes the entry (the data log). */
  onJobFinished?: (job: JobRun) => void;
}

/**
 * A button opening the time-series upload dialog, for any screen that offers the upload (the
 * administration import page, the data log for area responsibles and train-run data providers).
 * A single file that fails goes to the import error screen below the button (calls.md §8); it lives
 * in this component's state, so leaving the screen clears it.
 */
export function TimeSeriesUploadButton({
  initiallyOpened = false,
  onUploaded,
  onJobFinished,
}: TimeSeriesUploadButtonProps) {
  const { t } = useNamespaceT('timeseriesUpload');
  const [opened, setOpened] = useState(initiallyOpened);
  const [importError, setImportError] = useState<UploadFileResult | null>(null);

  const onComplete = (results: UploadFileResult[]) => {
    if (results.some((r) => r.outcome.status !== 'failed')) onUploaded?.();
    const failed = singleFailure(results);
    setImportError(failed);
    if (failed) setOpened(false);
  };

  return (
    <Stack gap="sm">
      <Group>
        <Button
          onClick={() => {
            setImportError(null);
            setOpened(true);
          }}
        >
          {t('open')}
        </Button>
      </Group>
      {importError && <ImportErrorScreen result={importError} t={t} />}
      <TimeSeriesUploadDialog
        opened={opened}
        onClose={() => setOpened(false)}
        onComplete={onComplete}
        onJobFinished={onJobFinished}
      />
    </Stack>
  );
}
