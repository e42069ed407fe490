import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { ActionIcon, Alert, Badge, Button, Group, Modal, Progress, Stack, Table, Text } from '@mantine/core';
import { Dropzone, type DropzoneProps } from '@mantine/dropzone';
import { useTranslation } from 'react-i18next';
import { MAX_UPLOAD_FILES } from '@railwatt/contracts';
import { isCancelled } from '../../../lib/errors';
import type { ModalType } from '../../../lib/stores/modal-store';
import {
  displayFileName,
  uploadDialogColor,
  uploadPercent,
  type FollowedJobStatus,
  type UploadDialogColor,
  type UploadEntry,
  type UploadFailure,
  type UploadFn,
  type UploadOutcome,
} from './upload-state';

export interface UploadFileResult {
  fileName: string;
  outcome: UploadOutcome;
}

export interface UploadPanelProps {
  upload: UploadFn;
  /** Accepted MIME types (with their extensions) for the file picker. */
  accept?: DropzoneProps['accept'];
  maxFiles?: number;
  /** Called once every file of an upload has an outcome. */
  onComplete?: (results: UploadFileResult[]) => void;
  /** Reports the dialog colour so a frame around the panel can show it. */
  onColorChange?: (color: UploadDialogColor) => void;
  /**
   * Whether a chosen file may be uploaded here (e.g. by extension); files it refuses are not listed.
   * The picker's `accept` only filters the browser's dialog, a dropped file still needs this check.
   */
  acceptFile?: (file: File) => boolean;
  /** What the drop zone says it takes (e.g. the accepted extensions). */
  hint?: ReactNode;
  /**
   * Shows the progress of a background job of a file that finished_async (the time-series jobs).
   * The job's view reports each status it reads through `onStatus`, and the dialog colour follows
   * the jobs (uploadDialogColor).
   */
  renderJob?: RenderJob;
}

export type RenderJob = (jobId: string, onStatus: (status: FollowedJobStatus) => void) => ReactNode;

const STATUS_COLOR: Record<UploadEntry['status'], string> = {
  waiting: 'gray',
  progressing: 'yellow',
  finished: 'green',
  finished_async: 'teal',
  failed: 'red',
};

let nextId = 0;

/** The content of the upload dialog: drop zone, file list with per-file status, and the upload button. */
export function UploadPanel({
  upload,
  accept,
  maxFiles = MAX_UPLOAD_FILES,
  onComplete,
  onColorChange,
  acceptFile,
  hint,
  renderJob,
}: UploadPanelProps) {
  const { t } = useTranslation();
  const [entries, setEntries] = useState<UploadEntry[]>([]);
  const [busy, setBusy] = useState(false);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const [jobStatuses, setJobStatuses] = useState<Record<string, FollowedJobStatus>>({});
  const reportJob = useCallback((jobId: string, status: FollowedJobStatus) => {
    if (!mounted.current) return;
    setJobStatuses((known) => (known[jobId] === status ? known : { ...known, [jobId]: status }));
  }, []);

  const tooMany = entries.length > maxFiles;
  const waiting = entries.filter((e) => e.status === 'waiting');
  // The jobs of the listed files only: an earlier upload's jobs leave with its files.
  const followed = renderJob
    ? entries.filter((e) => e.status === 'finished_async').flatMap((e) => (e.jobIds ?? []).map((id) => jobStatuses[id]))
    : [];
  const color = uploadDialogColor(
    entries.map((e) => e.status),
    followed,
  );
  useEffect(() => onColorChange?.(color), [color, onColorChange]);

  const patch = (id: string, change: Partial<UploadEntry>) => {
    if (!mounted.current) return;
    setEntries((list) => list.map((e) => (e.id === id ? { ...e, ...change } : e)));
  };

  const addFiles = (files: File[]) => {
    setEntries((list) => [
      // Files of an earlier upload make room for the new choice.
      ...list.filter((e) => e.status === 'waiting'),
      ...(acceptFile ? files.filter(acceptFile) : files).map((file) => ({
        id: `upload-${nextId++}`,
        file,
        status: 'waiting' as const,
        progress: 0,
        failures: [],
      })),
    ]);
  };

  const start = async () => {
    if (tooMany || waiting.length === 0) return;
    setBusy(true);
    const results: UploadFileResult[] = [];
    // One request per file, one after the other: each file gets its own progress and answer.
    for (const entry of waiting) {
      patch(entry.id, { status: 'progressing', progress: 0 });
      let shown = 0;
      let outcome: UploadOutcome;
      try {
        outcome = await upload(entry.file, (progress) => {
          // Progress events come per chunk; re-render only when the whole percent moves.
          const percent = uploadPercent(progress);
          if (percent === shown) return;
          shown = percent;
          patch(entry.id, { progress: percent });
        });
      } catch (error) {
        if (isCancelled(error)) {
          // Cancelled on purpose (area switch): no message, the file waits again, and the files
          // after it are not sent, so nothing goes to an area the user did not upload to.
          patch(entry.id, { status: 'waiting', progress: 0 });
          break;
        }
        outcome = { status: 'failed', failures: [], message: t('upload.failed_unknown') };
      }
      patch(entry.id, {
        status: outcome.status,
        progress: 100,
        failures: outcome.failures,
        message: outcome.message,
        jobIds: outcome.jobIds,
      });
      results.push({ fileName: entry.file.name, outcome });
    }
    if (!mounted.current) return;
    setBusy(false);
    onComplete?.(results);
  };

  return (
    <Stack gap="sm" data-color={color} data-testid="upload-panel">
      <Dropzone
        onDrop={(files) => addFiles(files)}
        accept={accept}
        multiple
        disabled={busy}
        inputProps={{ 'data-testid': 'upload-input', 'aria-label': t('upload.choose_files') } as object}
      >
        <Stack align="center" gap={4} py="md" style={{ pointerEvents: 'none' }}>
          <Text fw={500}>{t('upload.drop_here')}</Text>
          <Text size="sm" c="dimmed">
            {t('upload.max_files', { value: maxFiles })}
          </Text>
          {hint ? (
            <Text size="sm" c="dimmed">
              {hint}
            </Text>
          ) : null}
        </Stack>
      </Dropzone>

      {tooMany && (
        <Alert color="red" data-testid="upload-file-limit">
          {t('upload_file_limit', { value: maxFiles })}
        </Alert>
      )}

      {entries.length > 0 && (
        <Table withRowBorders>
          <Table.Tbody>
            {entries.map((entry) => (
              <UploadRow
                key={entry.id}
                entry={entry}
                renderJob={renderJob}
                onJobStatus={reportJob}
                onRemove={
                  entry.status === 'waiting' && !busy
                    ? () => setEntries((list) => list.filter((e) => e.id !== entry.id))
                    : undefined
                }
              />
            ))}
          </Table.Tbody>
        </Table>
      )}

      <Group justify="flex-end">
        <Button variant="subtle" onClick={() => setEntries([])} disabled={busy || entries.length === 0}>
          {t('upload.clear')}
        </Button>
        <Button onClick={() => void start()} disabled={busy || tooMany || waiting.length === 0} loading={busy}>
          {t('upload.upload')}
        </Button>
      </Group>
    </Stack>
  );
}

function UploadRow({
  entry,
  onRemove,
  renderJob,
  onJobStatus,
}: {
  entry: UploadEntry;
  onRemove?: () => void;
  renderJob?: RenderJob;
  onJobStatus: (jobId: string, status: FollowedJobStatus) => void;
}) {
  const jobs = renderJob && entry.status === 'finished_async' ? (entry.jobIds ?? []) : [];
  const { t } = useTranslation();
  return (
    <>
      <Table.Tr>
        <Table.Td title={entry.file.name} data-testid="upload-file-name">
          {displayFileName(entry.file.name)}
        </Table.Td>
        <Table.Td w={160}>
          {entry.status === 'progressing' ? <UploadProgressBar percent={entry.progress} /> : null}
        </Table.Td>
        <Table.Td w={140}>
          <Badge color={STATUS_COLOR[entry.status]} data-testid="upload-file-status" data-status={entry.status}>
            {t(`upload.status.${entry.status}`)}
          </Badge>
        </Table.Td>
        <Table.Td w={40}>
          {onRemove && (
            <ActionIcon variant="subtle" color="gray" aria-label={t('upload.remove')} onClick={onRemove}>
              ×
            </ActionIcon>
          )}
        </Table.Td>
      </Table.Tr>
      {(entry.message || entry.failures.length > 0) && (
        <Table.Tr>
          <Table.Td colSpan={4}>
            {entry.message && (
              <Text size="sm" c="red">
                {entry.message}
              </Text>
            )}
            {entry.failures.length > 0 && <UploadFailureList failures={entry.failures} />}
          </Table.Td>
        </Table.Tr>
      )}
      {jobs.length > 0 && (
        <Table.Tr>
          <Table.Td colSpan={4}>
            <Stack gap={4}>
              {jobs.map((jobId) => (
                <div key={jobId}>{renderJob?.(jobId, (status) => onJobStatus(jobId, status))}</div>
              ))}
            </Stack>
          </Table.Td>
        </Table.Tr>
      )}
    </>
  );
}

/**
 * Real progress while the bytes go out; once all are sent the server is still reading the file, so
 * the full bar turns striped and animated (no percentage to give) until the answer arrives.
 */
function UploadProgressBar({ percent }: { percent: number }) {
  const { t } = useTranslation();
  const processing = percent >= 100;
  return (
    <Progress
      value={processing ? 100 : percent}
      color="yellow"
      striped={processing}
      animated={processing}
      transitionDuration={200}
      aria-label={processing ? t('upload.processing') : t('upload.status.progressing')}
      data-testid="upload-file-progress"
      data-phase={processing ? 'processing' : 'sending'}
    />
  );
}

/** The failures of an import: error message and type, grouped by nothing (sheet shown per row). */
export function UploadFailureList({ failures }: { failures: readonly UploadFailure[] }) {
  const { t } = useTranslation();
  return (
    <Table data-testid="upload-failures" fz="sm">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('upload.failure.sheet')}</Table.Th>
          <Table.Th>{t('upload.failure.type')}</Table.Th>
          <Table.Th>{t('upload.failure.message')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {failures.map((f, i) => (
          <Table.Tr key={i}>
            <Table.Td>{f.sheetName ?? ''}</Table.Td>
            <Table.Td>{f.type}</Table.Td>
            <Table.Td>{f.errorMessage}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

export interface UploadDialogProps extends UploadPanelProps {
  opened: boolean;
  onClose: () => void;
  title: string;
  /** Choices above the drop zone (the time-series dialog's file kind for .xml). */
  children?: ReactNode;
  /** The modal type of product.md §4 this dialog is (entities_upload, timeseries_upload ...). */
  modalType?: ModalType;
}

/**
 * The upload dialog of product.md §4/§5 as a modal. The modal's top border carries the dialog colour
 * (yellow progressing, red failed, green finished, blue otherwise); `data-color` exposes it to tests.
 */
export function UploadDialog({ opened, onClose, title, children, modalType, ...panel }: UploadDialogProps) {
  const [color, setColor] = useState<UploadDialogColor>('blue');
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={title}
      size="lg"
      data-testid="upload-dialog"
      data-color={color}
      data-modal-type={modalType}
      styles={{ content: { borderTop: `6px solid var(--mantine-color-${color}-6)` } }}
    >
      <Stack gap="sm">
        {children}
        <UploadPanel {...panel} onColorChange={setColor} />
      </Stack>
    </Modal>
  );
}
