import { useEffect, useMemo, useRef } from 'react';
import { Alert, Badge, Button, Group, Progress, Select, Stack, Text } from '@mantine/core';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { z } from 'zod';
import {
  DELAYED_TASK_STATUSES,
  PAGE_SIZES,
  delayedTaskStatusSchema,
  type DelayedTask,
  type DelayedTaskStatus,
  type JobStatus,
  type ProcedureResult,
} from '@railwatt/contracts';
import { ApiErrorText } from '../../../components/ui/api-error';
import { DataTable } from '../../../components/ui/data-table';
import { PageTitle } from '../../../components/ui/page-title';
import { isJobFinal, jobQuery } from '../../../components/ui/upload-dialog';
import { formatDateTime } from '../../../lib/format';
import type { ScreenProps } from '../../../lib/routes';
import { useMarketStore } from '../../../lib/stores/market-store';
import { useNamespaceT } from '../../../lib/use-namespace-t';
import { useUrlSearch } from '../../../lib/use-url-search';
import { delayedTaskCountQuery, delayedTaskKeys, delayedTaskPageQuery, useRunDelayedTask } from '../api/delayed-tasks';

/** The texts of this page (locales/<lng>/delayed-tasks.json). */
const useDelayedTasksT = () => useNamespaceT('delayedTasks');

const DESTINATION = 'shunting-and-stabling';

/** The page's table state in the URL (STYLE.md 5): 1-based page, size, status filter. */
const searchSchema = z.object({
  page: z.coerce.number().int().min(1).catch(1).default(1),
  size: z.coerce.number().int().min(1).max(PAGE_SIZES.lookup).catch(PAGE_SIZES.default).default(PAGE_SIZES.default),
  status: delayedTaskStatusSchema.optional().catch(undefined),
});

const STATUS_COLOR: Record<DelayedTaskStatus, string> = {
  waiting: 'yellow',
  started: 'blue',
  done: 'green',
  cancelled: 'gray',
};
const JOB_COLOR: Record<JobStatus, string> = {
  queued: 'gray',
  running: 'yellow',
  success: 'green',
  failure: 'red',
  dead: 'red',
};

/** A task can be run now while it waits, or again when the run that took it up did not finish it. */
const runnable = (task: DelayedTask) => task.status === 'waiting' || task.status === 'started';

/**
 * One run a "run now" started, followed through GET /jobs/{id} (the same query as the upload dialog's
 * jobs) until it ends; then the tasks are read again (the run marks its task done, or records a new one).
 */
function RunProgress({ result }: { result: ProcedureResult }) {
  const { t } = useDelayedTasksT();
  const timeZone = useMarketStore((s) => s.timeZone) ?? 'UTC';
  const queryClient = useQueryClient();
  const { data: job, isError } = useQuery({ ...jobQuery(result.jobId ?? ''), enabled: result.jobId !== null });
  const ended = isJobFinal(job);
  const told = useRef(false);
  useEffect(() => {
    if (!ended || told.current) return;
    told.current = true;
    void queryClient.invalidateQueries({ queryKey: delayedTaskKeys.all(DESTINATION) });
  }, [ended, queryClient]);
  const status: JobStatus = job?.status ?? 'queued';
  return (
    <Stack gap={2} data-testid="run-progress" data-status={isError ? 'unknown' : status}>
      <Group justify="space-between" gap="xs">
        <Text size="sm">
          {t('run.label', {
            start: formatDateTime(result.periodStart, timeZone),
            end: formatDateTime(result.periodEnd, timeZone),
          })}
        </Text>
        <Badge color={isError ? 'red' : JOB_COLOR[status]} variant="light" data-testid="run-status">
          {isError ? t('run.follow_failed') : t(`run.status.${status}`)}
        </Badge>
      </Group>
      <Progress
        value={status === 'success' ? 100 : Math.round((job?.progress ?? 0) * 100)}
        color={JOB_COLOR[status]}
        striped={!ended}
        animated={status === 'running'}
        aria-label={t('run.progress')}
      />
      {ended && job?.message ? (
        <Text size="sm" c={status === 'success' ? 'dimmed' : 'red'} data-testid="run-message">
          {job.message}
        </Text>
      ) : null}
    </Stack>
  );
}

/**
 * /monitor/processes/shunting-and-stabling/delayedtasks (issue 9 item 4): the days whose energy
 * could not be judged yet (late train runs may still come), each run again when due. The route is
 * for the roles that run processes; "run now" starts one task's run, "run all due" every waiting
 * task that is due; the runs' progress shows below the count until they end.
 */
export function DelayedTasksPage(props: ScreenProps) {
  const { t, tRoot } = useDelayedTasksT();
  const timeZone = useMarketStore((s) => s.timeZone) ?? 'UTC';
  const { search, update } = useUrlSearch(searchSchema);
  const count = useQuery(delayedTaskCountQuery(DESTINATION));
  const tasks = useQuery({
    ...delayedTaskPageQuery(DESTINATION, { page: search.page - 1, size: search.size, status: search.status }),
    placeholderData: keepPreviousData,
  });
  const run = useRunDelayedTask();
  const started = run.data;

  const columns = useMemo<ColumnDef<DelayedTask>[]>(
    () => [
      {
        id: 'period',
        header: t('column.period'),
        cell: ({ row }) =>
          t('period', {
            start: formatDateTime(row.original.periodStart, timeZone),
            end: formatDateTime(row.original.periodEnd, timeZone),
          }),
      },
      { id: 'dueAt', header: t('column.dueAt'), cell: ({ row }) => formatDateTime(row.original.dueAt, timeZone) },
      { id: 'reason', header: t('column.reason'), cell: ({ row }) => row.original.reason },
      {
        id: 'status',
        header: t('column.status'),
        cell: ({ row }) => (
          <Badge color={STATUS_COLOR[row.original.status]} variant="light">
            {t(`status.${row.original.status}`)}
          </Badge>
        ),
      },
      {
        id: 'createdAt',
        header: t('column.createdAt'),
        cell: ({ row }) => formatDateTime(row.original.createdAt, timeZone),
      },
      {
        id: 'actions',
        header: () => null,
        cell: ({ row }) =>
          runnable(row.original) ? (
            <Button
              size="xs"
              variant="light"
              loading={run.isPending && run.variables === row.original.id}
              disabled={run.isPending}
              onClick={() => run.mutate(row.original.id)}
            >
              {t('action.runNow')}
            </Button>
          ) : null,
      },
    ],
    [t, timeZone, run],
  );

  const page = tasks.data;
  return (
    <Stack>
      <PageTitle {...props} />
      <Group justify="space-between" align="flex-end">
        <Group align="flex-end">
          <Text data-testid="waiting-count">
            {count.data === undefined ? t('waiting.loading') : t('waiting.count', { count: count.data })}
          </Text>
          <Select
            label={t('filter.status')}
            placeholder={t('filter.all')}
            clearable
            data={DELAYED_TASK_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))}
            value={search.status ?? null}
            onChange={(value) => update({ status: value, page: 1 })}
          />
        </Group>
        <Button
          loading={run.isPending && run.variables === undefined}
          disabled={run.isPending}
          onClick={() => run.mutate(undefined)}
        >
          {t('action.runAllDue')}
        </Button>
      </Group>
      {run.isError ? <ApiErrorText error={run.error} fallback={tRoot('api_error_code.unknown')} /> : null}
      {started && started.length === 0 ? (
        <Alert color="gray" data-testid="nothing-due">
          {t('run.nothingDue')}
        </Alert>
      ) : null}
      {started?.map((result) => (
        <RunProgress key={result.id} result={result} />
      ))}
      {tasks.isError ? <ApiErrorText error={tasks.error} fallback={tRoot('api_error_code.unknown')} /> : null}
      <DataTable
        data={page?.content ?? []}
        columns={columns}
        getRowId={(task) => String(task.id)}
        emptyMessage={t('empty')}
        loading={tasks.isFetching}
        data-testid="delayed-tasks-table"
        rowTestId="delayed-task-row"
        pagination={{
          page: search.page,
          size: search.size,
          totalPages: page?.totalPages ?? 0,
          totalElements: page?.totalElements,
          onChange: (next) => update({ page: next.page, size: next.size }),
        }}
      />
    </Stack>
  );
}
