import { useEffect, useRef } from 'react';
import { Badge, Group, Progress, Stack, Text } from '@mantine/core';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { timeSeriesCalls, type JobRun, type JobStatus } from '@railwatt/contracts';
import { api } from '../../../lib/api';
import { useNamespaceT } from '../../../lib/use-namespace-t';

/** A followed job is read again every second until it ends (issue 8: the upload dialog follows its jobs). */
export const JOB_POLL_MS = 1000;

const FINAL: readonly JobStatus[] = ['success', 'failure', 'dead'];

export const isJobFinal = (job: JobRun | undefined): boolean => job !== undefined && FINAL.includes(job.status);

const JOB_COLOR: Record<JobStatus, string> = {
  queued: 'gray',
  running: 'yellow',
  success: 'green',
  failure: 'red',
  dead: 'red',
};

/** GET /jobs/{id}, read every second until the job succeeded, failed or died (or cannot be read). */
export const jobQuery = (id: string) =>
  queryOptions({
    queryKey: ['jobs', id] as const,
    queryFn: ({ signal }) => api.call(timeSeriesCalls.job, { params: { id }, signal }),
    refetchInterval: (query) => (query.state.status === 'error' || isJobFinal(query.state.data) ? false : JOB_POLL_MS),
    retry: false,
  });

/**
 * One background job as the upload dialogs show it: its status, a progress bar (0..1 from the job),
 * and its final message once it ended. Texts: timeseriesUpload.job.* (locales/<lng>/timeseries-upload.json).
 */
export function JobProgress({
  jobId,
  label,
  onFinished,
  onStatus,
}: {
  jobId: string;
  /** What the job does ("Report job"); default the import job's label. */
  label?: string;
  onFinished?: (job: JobRun) => void;
  /** Each status read (undefined before the first answer, 'unknown' when the job cannot be read): the dialog colour. */
  onStatus?: (status: JobStatus | 'unknown' | undefined) => void;
}) {
  const { t } = useNamespaceT('timeseriesUpload');
  const name = label ?? t('job.label');
  const { data: job, isError } = useQuery(jobQuery(jobId));
  const seen = isError ? 'unknown' : job?.status;
  useEffect(() => onStatus?.(seen), [seen, onStatus]);
  // Told once when the job ends (the data log refreshes its entry).
  const told = useRef(false);
  const ended = isJobFinal(job) ? job : undefined;
  useEffect(() => {
    if (!ended || told.current) return;
    told.current = true;
    onFinished?.(ended);
  }, [ended, onFinished]);
  if (isError) {
    return (
      <Text size="sm" c="red" data-testid="job-progress" data-status="unknown">
        {t('job.follow_failed')}
      </Text>
    );
  }
  const status: JobStatus = job?.status ?? 'queued';
  const percent = Math.round((job?.progress ?? 0) * 100);
  const final = isJobFinal(job);
  return (
    <Stack gap={2} data-testid="job-progress" data-status={status}>
      <Group gap="xs" justify="space-between">
        <Text size="sm">{name}</Text>
        <Badge color={JOB_COLOR[status]} variant="light" data-testid="job-status">
          {t(`job.status.${status}`)}
        </Badge>
      </Group>
      <Progress
        value={status === 'success' ? 100 : percent}
        color={JOB_COLOR[status]}
        striped={!final}
        animated={status === 'running'}
        aria-label={name}
      />
      {final && job?.message ? (
        <Text size="sm" c={status === 'success' ? 'dimmed' : 'red'} data-testid="job-message">
          {job.message}
        </Text>
      ) : null}
    </Stack>
  );
}
