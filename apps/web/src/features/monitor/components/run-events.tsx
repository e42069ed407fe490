import { Button, Group, Stack, Table, Text, Title, UnstyledButton } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import {
  PAGE_SIZES,
  type ProcessingEventFilter,
  type ProcessingEventSummaryRow,
  type Severity,
} from '@railwatt/contracts';
import { ApiErrorText } from '../../../components/ui/api-error';
import { formatNumber } from '../../../lib/format';
import { eventsQuery, eventSummaryQuery } from '../api/processing-queries';
import { useMonitorT } from '../hooks/use-monitor-t';
import { EventsTable } from './events-table';
import { SeverityBadge, useEventCodeLabel } from './process-cells';

/** One (code, severity) of the summary, the list's filter when chosen. */
export interface CodeAndSeverity {
  code: string;
  severity: Severity;
}

/** The code and severity a filter narrows to, when it names exactly one of each. */
export const chosenOf = (codes?: readonly string[], severities?: readonly Severity[]): CodeAndSeverity | null =>
  codes?.length === 1 && severities?.length === 1 ? { code: codes[0]!, severity: severities[0]! } : null;

/**
 * Events summed by code and severity (POST /eventlog/processingevent/summary): each row's code as
 * words (numeric codes with their number), severity, events and incidents. A row is a button: it
 * narrows the list below to its code and severity, and chosen again shows all.
 */
export function EventSummaryTable({
  rows,
  chosen,
  onChoose,
}: {
  rows: readonly ProcessingEventSummaryRow[];
  chosen: CodeAndSeverity | null;
  onChoose: (next: CodeAndSeverity | null) => void;
}) {
  const { t, i18n } = useMonitorT();
  const label = useEventCodeLabel();
  if (rows.length === 0) return null;
  const isChosen = (row: ProcessingEventSummaryRow) =>
    chosen !== null && chosen.code === row.errorCode && chosen.severity === row.severity;
  return (
    <Table data-testid="result-code-groups" striped highlightOnHover>
      <Table.Caption>{t('eventSummary.caption')}</Table.Caption>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('event.code')}</Table.Th>
          <Table.Th>{t('event.severity')}</Table.Th>
          <Table.Th>{t('eventSummary.events')}</Table.Th>
          <Table.Th>{t('event.incidents')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((row) => (
          <Table.Tr
            key={`${row.errorCode}|${row.severity}`}
            data-testid="result-code-group"
            data-chosen={isChosen(row) || undefined}
            fw={isChosen(row) ? 700 : undefined}
          >
            <Table.Td>
              <UnstyledButton
                fz="sm"
                td="underline"
                aria-pressed={isChosen(row)}
                title={row.errorCode}
                onClick={() => onChoose(isChosen(row) ? null : { code: row.errorCode, severity: row.severity })}
              >
                {label(row.errorCode)}
              </UnstyledButton>
            </Table.Td>
            <Table.Td>
              <SeverityBadge severity={row.severity} />
            </Table.Td>
            <Table.Td>{formatNumber(row.events, i18n.language)}</Table.Td>
            <Table.Td>{formatNumber(row.incidents, i18n.language)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** Where the list of a run's events is: its page (1-based), size and the code and severity chosen. */
export interface RunEventsState {
  page: number;
  size: number;
  codes?: string[];
  severities?: Severity[];
}

/**
 * A run's events: their count, the summary by code and severity (clicking a row narrows the list),
 * and every event, paged on the server (50 a page by default, so a run with 83 shows 50 and 33).
 * The state is the caller's, kept in its URL.
 */
export function RunEvents({
  id,
  timeZone,
  state,
  onChange,
}: {
  id: number;
  timeZone: string;
  state: RunEventsState;
  onChange: (next: { page?: number; size?: number; codes?: string[]; severities?: Severity[] }) => void;
}) {
  const { t, i18n } = useMonitorT();
  const number = (n: number) => formatNumber(n, i18n.language);
  // Query keys compare by value: plain objects serve.
  const all: ProcessingEventFilter = { procedureResultIds: [id] };
  const chosen = chosenOf(state.codes, state.severities);
  const filter: ProcessingEventFilter = chosen
    ? { ...all, errorCodes: [chosen.code], severities: [chosen.severity] }
    : all;
  const summary = useQuery(eventSummaryQuery(all));
  const events = useQuery(
    eventsQuery(
      { page: state.page - 1, size: state.size, sortBy: 'time', descendingOrder: false, filter },
      `result-events-${id}`,
    ),
  );
  const total = (summary.data ?? []).reduce((n, row) => n + row.events, 0);
  const choose = (next: CodeAndSeverity | null) =>
    onChange({ page: 1, codes: next ? [next.code] : undefined, severities: next ? [next.severity] : undefined });
  return (
    <Stack gap="xs" data-testid="run-events">
      <Title order={4}>{t('result.events', { count: total })}</Title>
      <ApiErrorText error={summary.error ?? events.error} />
      <EventSummaryTable rows={summary.data ?? []} chosen={chosen} onChoose={choose} />
      {chosen && (
        <Group gap="xs">
          <Text size="sm" data-testid="run-events-chosen">
            {t('eventSummary.chosen', { shown: number(events.data?.totalElements ?? 0), total: number(total) })}
          </Text>
          <Button size="compact-sm" variant="subtle" onClick={() => choose(null)}>
            {t('eventSummary.all')}
          </Button>
        </Group>
      )}
      <EventsTable
        events={events.data?.content ?? []}
        timeZone={timeZone}
        loading={events.isFetching}
        pagination={{
          page: state.page,
          size: state.size,
          totalPages: events.data?.totalPages ?? 1,
          totalElements: events.data?.totalElements,
          onChange: (next) => onChange(next),
        }}
      />
    </Stack>
  );
}

/** The default of a run's event list: the event monitor's page of 50. */
export const RUN_EVENTS_SIZE = PAGE_SIZES.eventMonitor;
