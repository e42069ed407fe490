import { useMemo, useState } from 'react';
import { Badge, Button, CloseButton, Group, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { policyAdmits, POLICIES } from '@railwatt/contracts';
import { ApiErrorText, useErrorModal } from '../../../components/ui/api-error';
import type { ScreenProps } from '../../../lib/routes';
import { useMarketStore } from '../../../lib/stores/market-store';
import { eventCountQuery, eventsQuery, exportEvents } from '../api/processing-queries';
import { toEventFilter, useEventSearch, type EventFilterFields } from '../hooks/use-monitor-search';
import { useMonitorT } from '../hooks/use-monitor-t';
import { EventFilters, EventsTable } from './events-table';
import { MonitorPageTitle, NotForRole, useMonitorZone } from './monitor-page-title';

/**
 * /monitor/eventmonitor (product.md §2, calls.md §7 "Events and audit log"): the area's processing
 * events filtered (process, error codes, severities, days, entity, one result's), sorted, paged by 50,
 * their count, and the filtered events as events.xlsx.
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
    </Stack>
  );
}
