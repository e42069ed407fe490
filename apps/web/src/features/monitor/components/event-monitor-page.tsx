import { useMemo, useState } from 'react';
import { Badge, Button, CloseButton, Group, Stack, Switch, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { policyAdmits, POLICIES } from '@railwatt/contracts';
import { ApiErrorText, useErrorModal } from '../../../components/ui/api-error';
import type { ScreenProps } from '../../../lib/routes';
import { useMarketStore } from '../../../lib/stores/market-store';
import { eventCountQuery, eventsQuery, eventSummaryQuery, exportEvents } from '../api/processing-queries';
import { toEventFilter, useEventSearch, type EventFilterFields } from '../hooks/use-monitor-search';
import { useMonitorT } from '../hooks/use-monitor-t';
import { EventFilters, EventsTable } from './events-table';
import { MonitorPageTitle, NotForRole, useMonitorZone } from './monitor-page-title';
import { chosenOf, EventSummaryTable } from './run-events';

/**
 * /monitor/eventmonitor (product.md §2, calls.md §7 "Events and audit log"): the area's processing
 * events filtered (process, error codes, severities, days, entity, one result's), sorted, paged by 50,
 * their count, and the filtered events as events.xlsx. Above the list, the events summed by code and
 * severity (a row narrows the list to it); the events of days a later run processed again are left
 * out unless the switch asks for them (issue 18 item 4).
 */
export function EventMonitorPage(props: Partial<ScreenProps>) {
  const { t } = useMonitorT();
  const roles = useMarketStore((s) => s.rolesInArea);
  const area = useMarketStore((s) => s.area?.kind ?? null);
  const timeZone = useMonitorZone();
  const mayRead = policyAdmits(POLICIES.processingRead, roles, area);
  const { search, update } = useEventSearch();
  const showError = useErrorModal();
  const [exporting, setExporting] = useState(false);
  const filter = useMemo(() => toEventFilter(search, timeZone), [search, timeZone]);
  const query = {
    page: search.page - 1,
    size: search.size,
    sortBy: search.sortBy,
    descendingOrder: search.desc,
    filter,
  };
  const events = useQuery({ ...eventsQuery(query), enabled: mayRead });
  const count = useQuery({ ...eventCountQuery(filter), enabled: mayRead });
  // The summary keeps every code and severity of the other filters, so a chosen row can be changed.
  const summary = useQuery({
    ...eventSummaryQuery({ ...filter, errorCodes: undefined, severities: undefined }),
    enabled: mayRead,
  });

  if (!mayRead) return <NotForRole screen={props} fallbackKey="eventMonitor.title" />;

  const applyFilters = (filters: EventFilterFields) => update({ ...filters, page: 1 });
  const onSort = (column: string) =>
    update({ sortBy: column, desc: search.sortBy === column ? !search.desc : true, page: 1 });
  const download = () => {
    setExporting(true);
    exportEvents({ sortBy: search.sortBy, descendingOrder: search.desc, filter })
      .catch((error: unknown) => showError(error))
      .finally(() => setExporting(false));
  };

  return (
    <Stack gap="sm">
      <MonitorPageTitle screen={props} fallbackKey="eventMonitor.title" />
      <EventFilters
        key={JSON.stringify({ ...search, page: undefined, size: undefined, sortBy: undefined, desc: undefined })}
        value={search}
        onSearch={applyFilters}
      />
      <Group justify="space-between">
        <Group gap="xs">
          <Text data-testid="event-count">{t('eventMonitor.count', { count: count.data ?? 0 })}</Text>
          {search.result && (
            <Badge
              variant="outline"
              data-testid="event-result-filter"
              rightSection={
                <CloseButton
                  size="xs"
                  aria-label={t('eventMonitor.allResults')}
                  onClick={() => update({ result: undefined, page: 1 })}
                />
              }
            >
              {t('eventMonitor.ofResult', { id: search.result })}
            </Badge>
          )}
        </Group>
        <Button variant="outline" onClick={download} loading={exporting} disabled={(count.data ?? 0) === 0}>
          {t('eventMonitor.export')}
        </Button>
      </Group>
      <Switch
        label={t('eventMonitor.superseded')}
        checked={search.superseded ?? false}
        onChange={(e) => update({ superseded: e.currentTarget.checked || undefined, page: 1 })}
        data-testid="event-superseded"
      />
      <ApiErrorText error={events.error ?? summary.error} />
      <EventSummaryTable
        rows={summary.data ?? []}
        chosen={chosenOf(search.codes, search.severities)}
        onChoose={(next) =>
          update({ codes: next ? [next.code] : undefined, severities: next ? [next.severity] : undefined, page: 1 })
        }
      />
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
    </Stack>
  );
}
