import { useMemo } from 'react';
import { Anchor, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { policyAdmits, POLICIES, type ProcessingEventFilter, type Severity } from '@railwatt/contracts';
import { ApiErrorText } from '../../../components/ui/api-error';
import { minimalListQuery } from '../../../components/ui/entity-kit/entity-api';
import { formatDateTime, withUnit } from '../../../lib/format';
import type { ScreenProps } from '../../../lib/routes';
import { useMarketStore } from '../../../lib/stores/market-store';
import { useFormat } from '../../../lib/use-format';
import {
  ALLOCATING_PROCEDURES,
  eventsQuery,
  procedureResultQuery,
  settledConsumptionQuery,
} from '../api/processing-queries';
import { toEventFilter, useEventSearch, useViewSearch, type EventFilterFields } from '../hooks/use-monitor-search';
import { useMonitorT } from '../hooks/use-monitor-t';
import { EVENT_MONITOR_PATH, EventFilters, EventsTable, RESULT_VIEW_PATH } from './events-table';
import { MonitorPageTitle, NotForRole, useMonitorZone } from './monitor-page-title';
import { EventCode, SeverityBadge, useProcessName } from './process-cells';
import { processPath } from './process-log-page';
import { RunSummary } from './process-run-page';
import { RunEvents } from './run-events';

function useMayRead() {
  const roles = useMarketStore((s) => s.rolesInArea);
  const area = useMarketStore((s) => s.area?.kind ?? null);
  return policyAdmits(POLICIES.processingRead, roles, area);
}

/**
 * An allocation step's outcome: the energy (kWh, consumed minus regenerated) allocated in the
 * result's period per paying organisation, as the settled-consumption call answers it, largest first.
 * The period's whole allocation (every step's category), since the steps hand records on to each other.
 */
function AllocationPanel({ id }: { id: number }) {
  const { t } = useMonitorT();
  const f = useFormat();
  const settled = useQuery(settledConsumptionQuery(id));
  const organisations = useQuery(minimalListQuery('organisation'));
  const names = new Map((organisations.data ?? []).map((o) => [o.uuid, o.name]));
  const rows = [...(settled.data ?? [])].sort((a, b) => b.totalSettledConsumption - a.totalSettledConsumption);
  return (
    <Paper withBorder p="sm" data-testid="result-allocation">
      <Title order={4} mb="xs">
        {t('resultView.allocation.title')}
      </Title>
      <ApiErrorText error={settled.error} />
      {settled.data && rows.length === 0 && <Text size="sm">{t('resultView.allocation.none')}</Text>}
      {rows.length > 0 && (
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('resultView.allocation.organisation')}</Table.Th>
              <Table.Th ta="right">{withUnit(t('resultView.allocation.energy'), 'kWh')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={row.organisation.uuid} data-testid="allocation-row">
                <Table.Td>{names.get(row.organisation.uuid) ?? row.organisation.uuid}</Table.Td>
                <Table.Td ta="right">{f.number(row.totalSettledConsumption)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Paper>
  );
}

/**
 * /monitor/processresultview?id= (issue 9 item 7, issue 18 item 4): one procedure result's fields,
 * followed live while it runs (its days and records), its period, and all its events: summed by code
 * and severity (a row narrows the list to its events) and paged on the server, the state in the URL.
 */
export function ProcessResultViewPage(props: Partial<ScreenProps>) {
  const { t } = useMonitorT();
  const processName = useProcessName();
  const timeZone = useMonitorZone();
  const mayRead = useMayRead();
  const { search, update } = useViewSearch();
  const id = search.id;
  const result = useQuery({ ...procedureResultQuery(id ?? 0, timeZone), enabled: mayRead && id !== undefined });

  if (!mayRead) return <NotForRole screen={props} fallbackKey="resultView.title" />;

  const run = result.data;
  return (
    <Stack gap="sm">
      <MonitorPageTitle screen={props} fallbackKey="resultView.title" />
      {id === undefined && <Text>{t('resultView.noId')}</Text>}
      <ApiErrorText error={result.error} />
      {run === null && <Text data-testid="result-not-found">{t('result.notFound')}</Text>}
      {run && (
        <Paper withBorder p="sm" data-testid="result-view">
          <Group justify="space-between" mb="xs">
            <Title order={3}>{t('resultView.heading', { id: run.id, process: processName(run.procedureName) })}</Title>
            <Anchor component={Link} to={processPath(run.procedureName, 'log')}>
              {t('run.toLog')}
            </Anchor>
          </Group>
          <RunSummary result={run} timeZone={timeZone} />
        </Paper>
      )}
      {run?.status === 'success' && ALLOCATING_PROCEDURES.includes(run.procedureName) && (
        <AllocationPanel id={run.id} />
      )}
      {run && (
        <Paper withBorder p="sm">
          <Group justify="flex-end">
            <Anchor component={Link} to={`${EVENT_MONITOR_PATH}?result=${run.id}`} data-testid="result-events-link">
              {t('resultView.allEvents')}
            </Anchor>
          </Group>
          <RunEvents id={run.id} timeZone={timeZone} state={search} onChange={update} />
        </Paper>
      )}
    </Stack>
  );
}

/** A filtered, paged event list in the URL's state (the event and error views). */
function FilteredEvents({
  fixed,
  fixedSeverities,
}: {
  fixed?: Partial<ProcessingEventFilter>;
  fixedSeverities?: readonly Severity[];
}) {
  const timeZone = useMonitorZone();
  const { search, update } = useEventSearch();
  const filter = useMemo(() => ({ ...toEventFilter(search, timeZone), ...fixed }), [search, timeZone, fixed]);
  const events = useQuery(
    eventsQuery({
      page: search.page - 1,
      size: search.size,
      sortBy: search.sortBy,
      descendingOrder: search.desc,
      filter,
    }),
  );
  const onSort = (column: string) =>
    update({ sortBy: column, desc: search.sortBy === column ? !search.desc : true, page: 1 });
  return (
    <>
      <EventFilters
        key={JSON.stringify({ ...search, page: undefined, size: undefined, sortBy: undefined, desc: undefined })}
        value={search}
        fixedSeverities={fixedSeverities}
        onSearch={(filters: EventFilterFields) => update({ ...filters, page: 1 })}
      />
      <ApiErrorText error={events.error} />
      <EventsTable
        events={events.data?.content ?? []}
        timeZone={timeZone}
        loading={events.isFetching}
        sort={{ sortBy: search.sortBy, descending: search.desc, onSort }}
        pagination={{
          page: search.page,
          size: search.size,
          totalPages: events.data?.totalPages ?? 1,
          totalElements: events.data?.totalElements,
          onChange: (next) => update(next),
        }}
      />
    </>
  );
}

/**
 * /monitor/eventview: one event (?id=) with its fields and links to its result and that result's
 * events, or, without an id, the events the filters (and ?result=) choose.
 */
export function EventViewPage(props: Partial<ScreenProps>) {
  const { t } = useMonitorT();
  const f = useFormat();
  const processName = useProcessName();
  const timeZone = useMonitorZone();
  const mayRead = useMayRead();
  const { search } = useViewSearch();
  const id = search.id;
  const one = useQuery({
    ...eventsQuery(
      { page: 0, size: 1, sortBy: 'id', descendingOrder: false, filter: { ids: [id ?? 0] } },
      'event-view',
    ),
    enabled: mayRead && id !== undefined,
  });

  if (!mayRead) return <NotForRole screen={props} fallbackKey="eventView.title" />;
  if (id === undefined) {
    return (
      <Stack gap="sm">
        <MonitorPageTitle screen={props} fallbackKey="eventView.title" />
        <FilteredEvents />
      </Stack>
    );
  }
  const event = one.data?.content[0];
  const line = (label: string, value: React.ReactNode) => (
    <Group gap="xs" wrap="nowrap">
      <Text size="sm" fw={600} w={160}>
        {label}
      </Text>
      <Text size="sm" component="div">
        {value}
      </Text>
    </Group>
  );
  return (
    <Stack gap="sm">
      <MonitorPageTitle screen={props} fallbackKey="eventView.title" />
      <ApiErrorText error={one.error} />
      {one.data && !event && <Text>{t('eventView.notFound')}</Text>}
      {event && (
        <Paper withBorder p="sm" data-testid="event-view">
          <Stack gap={4}>
            {line(t('event.time'), formatDateTime(event.time, timeZone))}
            {line(t('event.process'), processName(event.processName))}
            {line(t('event.code'), <EventCode code={event.errorCode} />)}
            {line(t('event.severity'), <SeverityBadge severity={event.severity} />)}
            {line(t('event.incidents'), f.number(event.incidents))}
            {line(t('event.entity'), event.entityIdentifier ?? '')}
            {line(t('event.message'), event.message ?? '')}
          </Stack>
          {event.procedureResultId !== null && (
            <Group gap="md" mt="sm">
              <Anchor component={Link} to={`${RESULT_VIEW_PATH}?id=${event.procedureResultId}`}>
                {t('event.result', { id: event.procedureResultId })}
              </Anchor>
              <Anchor component={Link} to={`${EVENT_MONITOR_PATH}?result=${event.procedureResultId}`}>
                {t('eventView.resultEvents')}
              </Anchor>
            </Group>
          )}
        </Paper>
      )}
    </Stack>
  );
}

const HIGH: readonly Severity[] = ['HIGH'];
const HIGH_FILTER: Partial<ProcessingEventFilter> = { severities: ['HIGH'] };

/** /monitor/errorview: the processing errors, i.e. the HIGH events (calls.md §9 default severity), by code. */
export function ErrorViewPage(props: Partial<ScreenProps>) {
  const { t } = useMonitorT();
  const mayRead = useMayRead();
  if (!mayRead) return <NotForRole screen={props} fallbackKey="errorView.title" />;
  return (
    <Stack gap="sm">
      <MonitorPageTitle screen={props} fallbackKey="errorView.title" />
      <Text size="sm" c="dimmed">
        {t('errorView.intro')}
      </Text>
      <FilteredEvents fixed={HIGH_FILTER} fixedSeverities={HIGH} />
    </Stack>
  );
}
