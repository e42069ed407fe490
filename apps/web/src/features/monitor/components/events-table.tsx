import { useMemo, useState } from 'react';
import { Anchor, Button, Group, MultiSelect, Paper, Select, SimpleGrid, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { Link } from 'react-router';
import { SEVERITIES, type ProcessingEvent, type Severity } from '@railwatt/contracts';
import { DataTable, type DataTablePagination, type DataTableSort } from '../../../components/ui/data-table';
import { DayInput } from '../../../components/ui/set-status-dialog';
import { formatDateTime } from '../../../lib/format';
import { errorCodesQuery, processesQuery } from '../api/processing-queries';
import { EMPTY_EVENT_FILTERS, type EventFilterFields } from '../hooks/use-monitor-search';
import { useMonitorT } from '../hooks/use-monitor-t';
import { EventCode, SeverityBadge, useEventCodeLabel, useProcessName } from './process-cells';

export const RESULT_VIEW_PATH = '/monitor/processresultview';
export const EVENT_VIEW_PATH = '/monitor/eventview';
export const EVENT_MONITOR_PATH = '/monitor/eventmonitor';

/**
 * Processing events as a table (event monitor, error view, event view, a result's events): time in the
 * area's zone, process, code with its text, severity, incidents, entity, message, and links to the
 * event and its result. Sorting is the caller's (it lives in the URL) when `sort` is given.
 */
export function EventsTable({
  events,
  timeZone,
  loading,
  pagination,
  sort,
}: {
  events: readonly ProcessingEvent[];
  timeZone: string;
  loading?: boolean;
  pagination?: DataTablePagination;
  sort?: DataTableSort;
}) {
  const { t } = useMonitorT();
  const processName = useProcessName();
  const columns = useMemo<ColumnDef<ProcessingEvent>[]>(() => {
    return [
      {
        id: 'time',
        header: t('event.time'),
        enableSorting: true,
        cell: ({ row }) => formatDateTime(row.original.time, timeZone),
      },
      {
        id: 'processName',
        header: t('event.process'),
        enableSorting: true,
        cell: ({ row }) => processName(row.original.processName),
      },
      {
        id: 'errorCode',
        header: t('event.code'),
        enableSorting: true,
        cell: ({ row }) => <EventCode code={row.original.errorCode} />,
      },
      {
        id: 'severity',
        header: t('event.severity'),
        enableSorting: true,
        cell: ({ row }) => <SeverityBadge severity={row.original.severity} />,
      },
      { id: 'incidents', header: t('event.incidents'), accessorKey: 'incidents' },
      { id: 'entity', header: t('event.entity'), cell: ({ row }) => row.original.entityIdentifier ?? '' },
      {
        id: 'message',
        header: t('event.message'),
        cell: ({ row }) => (
          <Text size="sm" style={{ whiteSpace: 'pre-line', maxWidth: 420 }}>
            {row.original.message ?? ''}
          </Text>
        ),
      },
      {
        id: 'links',
        header: () => null,
        cell: ({ row }) => (
          <Group gap="xs" wrap="nowrap">
            <Anchor component={Link} size="sm" to={`${EVENT_VIEW_PATH}?id=${row.original.id}`}>
              {t('event.open')}
            </Anchor>
            {row.original.procedureResultId !== null && (
              <Anchor
                component={Link}
                size="sm"
                to={`${RESULT_VIEW_PATH}?id=${row.original.procedureResultId}`}
                data-testid="event-result-link"
              >
                {t('event.result', { id: row.original.procedureResultId })}
              </Anchor>
            )}
          </Group>
        ),
      },
    ];
  }, [t, timeZone, processName]);

  return (
    <DataTable
      data={events}
      columns={columns}
      getRowId={(row) => String(row.id)}
      emptyMessage={t('event.empty')}
      loading={loading}
      data-testid="events-table"
      rowTestId="event-row"
      pagination={pagination}
      sort={sort}
    />
  );
}

/**
 * The event filters (process, error codes, severities, days, entity), edited as a draft and applied
 * by Search. The error codes are the chosen process's (GET .../{process}/errorcodesByProcess) or the
 * area's. `fixedSeverities` hides the severity choice (the error view shows HIGH events only).
 */
export function EventFilters({
  value,
  onSearch,
  fixedSeverities,
}: {
  value: EventFilterFields;
  onSearch: (filters: EventFilterFields) => void;
  fixedSeverities?: readonly Severity[];
}) {
  const { t } = useMonitorT();
  const processName = useProcessName();
  const [draft, setDraft] = useState<EventFilterFields>(value);
  const processes = useQuery(processesQuery());
  const codes = useQuery(errorCodesQuery(draft.process));
  const codeLabel = useEventCodeLabel();
  const set = <K extends keyof EventFilterFields>(key: K, v: EventFilterFields[K]) =>
    setDraft((d) => ({ ...d, [key]: v }));

  return (
    <Paper withBorder p="sm" mb="md">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          onSearch(draft);
        }}
      >
        <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }} spacing="xs">
          <Select
            label={t('filter.process')}
            clearable
            searchable
            nothingFoundMessage={t('noOptions')}
            data={(processes.data ?? []).map((p) => ({ value: p.name, label: processName(p.name) }))}
            value={draft.process ?? null}
            // Codes of another process do not apply: the choice of codes starts again.
            onChange={(v) => setDraft((d) => ({ ...d, process: v ?? undefined, codes: undefined }))}
            data-testid="filter-process"
          />
          <MultiSelect
            label={t('filter.errorCodes')}
            searchable
            nothingFoundMessage={t('noOptions')}
            data={(codes.data ?? []).map((code) => ({ value: code, label: codeLabel(code) }))}
            value={draft.codes ?? []}
            onChange={(v) => set('codes', v.length ? v : undefined)}
            data-testid="filter-codes"
          />
          {!fixedSeverities && (
            <MultiSelect
              label={t('filter.severities')}
              data={SEVERITIES.map((s) => ({ value: s, label: t(`severity.${s}`) }))}
              value={draft.severities ?? []}
              onChange={(v) => set('severities', v.length ? (v as Severity[]) : undefined)}
            />
          )}
          <TextInput
            label={t('filter.entity')}
            value={draft.entity ?? ''}
            onChange={(e) => set('entity', e.currentTarget.value || undefined)}
          />
          <DayInput
            label={t('filter.eventFrom')}
            clearable
            value={draft.from ?? null}
            onChange={(d) => set('from', d ?? undefined)}
          />
          <DayInput
            label={t('filter.eventTo')}
            clearable
            value={draft.to ?? null}
            onChange={(d) => set('to', d ?? undefined)}
          />
        </SimpleGrid>
        <Group justify="flex-end" mt="sm">
          <Button
            variant="subtle"
            onClick={() => {
              setDraft(EMPTY_EVENT_FILTERS);
              onSearch(EMPTY_EVENT_FILTERS);
            }}
          >
            {t('clearFilters')}
          </Button>
          <Button type="submit">{t('search')}</Button>
        </Group>
      </form>
    </Paper>
  );
}
