import { useMemo } from 'react';
import { Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { Link } from 'react-router';
import {
  canRerun,
  policyAdmits,
  POLICIES,
  PROCEDURES,
  type ProcedureName,
  type ProcedureResult,
} from '@railwatt/contracts';
import { ApiErrorText, useErrorModal } from '../../../components/ui/api-error';
import { DataTable } from '../../../components/ui/data-table';
import { formatDateTime } from '../../../lib/format';
import type { ScreenProps } from '../../../lib/routes';
import { useMarketStore } from '../../../lib/stores/market-store';
import { useModalStore } from '../../../lib/stores/modal-store';
import { isUnderWay, procedureResultsQuery, useRerun } from '../api/processing-queries';
import { toProcessLogFilter, useProcessLogSearch, type ProcessLogFilterFields } from '../hooks/use-monitor-search';
import { useMonitorT } from '../hooks/use-monitor-t';
import { EVENT_MONITOR_PATH, RESULT_VIEW_PATH } from './events-table';
import { MonitorPageTitle, NotForRole, useMonitorZone } from './monitor-page-title';
import { periodText, ResultProgress, ResultStatusBadge, useProcessName } from './process-cells';
import { ProcessLogFilters } from './process-log-filters';
import { processPath } from '../../../lib/process-path';

export { processPath };

/**
 * /monitor/processes/<procedure>/log (issue 9 item 7): the procedure's results filtered by the process
 * log filter, sorted, paged by 20 (page 1 shown, sent zero-based), in the area's zone. A row under way
 * shows its progress, and the page follows it until it ends. Writers may run a finished row again
 * (not metered-energy-aggregation, contracts canRerun) after a yes/no question.
 */
export function ProcessLogPage({ procedure, ...props }: Partial<ScreenProps> & { procedure: ProcedureName }) {
  const { t } = useMonitorT();
  const processName = useProcessName();
  const roles = useMarketStore((s) => s.rolesInArea);
  const area = useMarketStore((s) => s.area?.kind ?? null);
  const timeZone = useMonitorZone();
  const mayRead = policyAdmits(POLICIES.processingRead, roles, area);
  const mayRun = policyAdmits(POLICIES.processingRun, roles, area) && PROCEDURES[procedure].runnable;
  const mayRerun = mayRun && canRerun(procedure);
  const { search, update } = useProcessLogSearch();
  const openModal = useModalStore((s) => s.open);
  const showError = useErrorModal();
  const rerun = useRerun(procedure, timeZone);
  const filter = useMemo(() => toProcessLogFilter(search, timeZone), [search, timeZone]);
  const list = useQuery({
    ...procedureResultsQuery({
      procedureName: procedure,
      page: search.page - 1,
      size: search.size,
      sortBy: search.sortBy,
      descendingOrder: search.desc,
      filter,
      timeZone,
    }),
    enabled: mayRead,
  });

  const askRerun = (result: ProcedureResult) =>
    openModal({
      type: 'userConfirmation',
      message: t('log.rerunQuestion', { id: result.id, process: processName(procedure) }),
      yesAction: () => {
        rerun.mutateAsync(result.id).then(
          // A short notice: the row shows the run's progress (dialogs are for questions and errors).
          () => notifications.show({ color: 'green', message: t('log.rerunStarted') }),
          (error: unknown) => showError(error),
        );
      },
    });

  const onSort = (column: string) =>
    update({ sortBy: column, desc: search.sortBy === column ? !search.desc : true, page: 1 });

  const columns = useMemo<ColumnDef<ProcedureResult>[]>(() => {
    return [
      { id: 'id', header: t('result.id'), enableSorting: true, accessorKey: 'id' },
      {
        id: 'status',
        header: t('result.status'),
        enableSorting: true,
        cell: ({ row }) => (
          <Stack gap={4}>
            <ResultStatusBadge status={row.original.status} />
            <ResultProgress result={row.original} />
          </Stack>
        ),
      },
      {
        id: 'periodStart',
        header: t('result.period'),
        enableSorting: true,
        cell: ({ row }) => {
          // What the run's extra params chose: metered-energy-aggregation's aggregation, settlement's tpa.
          const options = row.original.runOptions;
          const chosen = [
            options?.aggregation ? t(`run.aggregationOption.${options.aggregation}`) : null,
            options?.tpa ? t('run.tpaOption') : null,
          ].filter((x) => x !== null);
          return (
            <Stack gap={0}>
              <Text size="sm">{periodText(row.original, timeZone)}</Text>
              {chosen.length > 0 && (
                <Text size="xs" c="dimmed" data-testid="log-run-options">
                  {chosen.join(', ')}
                </Text>
              )}
            </Stack>
          );
        },
      },
      {
        id: 'executeStartTime',
        header: t('result.start'),
        enableSorting: true,
        cell: ({ row }) => formatDateTime(row.original.executeStartTime, timeZone),
      },
      {
        id: 'executeEndTime',
        header: t('result.end'),
        enableSorting: true,
        cell: ({ row }) => formatDateTime(row.original.executeEndTime, timeZone),
      },
      {
        id: 'message',
        header: t('result.message'),
        cell: ({ row }) => (
          <Text size="sm" style={{ whiteSpace: 'pre-line', maxWidth: 420 }}>
            {row.original.message ?? ''}
          </Text>
        ),
      },
      { id: 'username', header: t('result.user'), accessorKey: 'username' },
      {
        id: 'actions',
        header: () => null,
        cell: ({ row }) => (
          <Group gap="xs" wrap="nowrap">
            <Anchor
              component={Link}
              size="sm"
              to={`${RESULT_VIEW_PATH}?id=${row.original.id}`}
              data-testid="log-result-link"
            >
              {t('log.result')}
            </Anchor>
            <Anchor
              component={Link}
              size="sm"
              to={`${EVENT_MONITOR_PATH}?result=${row.original.id}`}
              data-testid="log-events-link"
            >
              {t('log.events')}
            </Anchor>
            {mayRerun && !isUnderWay(row.original) && (
              <Button size="compact-xs" variant="outline" onClick={() => askRerun(row.original)}>
                {t('log.rerun')}
              </Button>
            )}
          </Group>
        ),
      },
    ];
    // onSort and askRerun read `search` and the mutation, which the dependencies cover.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [t, timeZone, mayRerun, search.sortBy, search.desc]);

  if (!mayRead) return <NotForRole screen={props} fallbackKey="log.title" />;

  return (
    <Stack gap="sm">
      <MonitorPageTitle screen={props} fallbackKey="log.title" />
      {mayRun && (
        <Group>
          <Button component={Link} to={processPath(procedure, 'run')} variant="light" data-testid="log-run-link">
            {t('log.run')}
          </Button>
        </Group>
      )}
      <ProcessLogFilters
        key={`${procedure}:${JSON.stringify({ ...search, page: undefined, size: undefined, sortBy: undefined, desc: undefined })}`}
        procedure={procedure}
        value={search}
        // A new search starts from the first page (product.md §4).
        onSearch={(filters: ProcessLogFilterFields) => update({ ...filters, page: 1 })}
      />
      <ApiErrorText error={list.error} />
      <DataTable
        data={list.data?.content ?? []}
        columns={columns}
        getRowId={(row) => String(row.id)}
        emptyMessage={t('log.empty')}
        // The overlay for a new page or filter, not for the once-a-second reads of a run under way.
        loading={list.isFetching && (list.isPlaceholderData || !list.data)}
        data-testid="process-log-table"
        rowTestId="process-log-row"
        sort={{ sortBy: search.sortBy, descending: search.desc, onSort }}
        pagination={{
          page: search.page,
          size: search.size,
          totalPages: list.data?.totalPages ?? 1,
          totalElements: list.data?.totalElements,
          onChange: (next) => update(next),
        }}
      />
    </Stack>
  );
}
