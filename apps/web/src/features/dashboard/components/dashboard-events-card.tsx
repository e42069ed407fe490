import { useState } from 'react';
import { Badge, Card, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { SEVERITIES, type DashboardEvent, type Severity } from '@railwatt/contracts';
import { ApiErrorText } from '../../../components/ui/api-error';
import { DataTable } from '../../../components/ui/data-table';
import { eventCodeLabel } from '../../../lib/event-code';
import { dashboardEventsQuery } from '../api/statistics-queries';
import { useStatisticsT } from '../hooks/use-statistics-t';

const SEVERITY_COLOR: Record<Severity, string> = { HIGH: 'red', MEDIUM: 'orange', LOW: 'gray' };
type SeverityFilter = Severity | 'ALL';

/**
 * Events per process of the previous seven days (calls.md §3): incidents per process, error code and
 * severity. The severity filter starts at HIGH (calls.md §9 "default severity HIGH"); "All" shows every one.
 */
export function DashboardEventsCard({ area, zone }: { area: string; zone: string }) {
  const { t, tRoot } = useStatisticsT();
  const [severity, setSeverity] = useState<SeverityFilter>('HIGH');
  const query = useQuery(dashboardEventsQuery(area, zone));
  const rows = (query.data ?? []).filter((e) => severity === 'ALL' || e.severity === severity);
  const columns: ColumnDef<DashboardEvent>[] = [
    {
      id: 'processName',
      header: t('events.processName'),
      cell: ({ row }) => tRoot(`processes.${row.original.processName}`, { defaultValue: row.original.processName }),
    },
    {
      id: 'errorCode',
      header: t('events.errorCode'),
      cell: ({ row }) => {
        const code = row.original.errorCode;
        return (
          <Text size="sm" title={code} data-testid="dashboard-event-code">
            {eventCodeLabel(code, tRoot)}
          </Text>
        );
      },
    },
    { accessorKey: 'incidents', header: t('events.incidents') },
    {
      id: 'severity',
      header: t('events.severity'),
      cell: ({ row }) => (
        <Badge color={SEVERITY_COLOR[row.original.severity]} variant="light">
          {t(`severity.${row.original.severity}`)}
        </Badge>
      ),
    },
  ];
  return (
    <Card withBorder data-testid="dashboard-events">
      <Stack>
        <Title order={2} size="h3">
          {t('events.title')}
        </Title>
        <SegmentedControl
          aria-label={t('events.severity')}
          value={severity}
          onChange={(value) => setSeverity(value as SeverityFilter)}
          data={[
            ...SEVERITIES.map((s) => ({ value: s, label: t(`severity.${s}`) })),
            { value: 'ALL', label: t('events.all') },
          ]}
          w="fit-content"
        />
        <ApiErrorText error={query.error} fallback={t('loadFailed')} />
        <DataTable
          data={rows}
          columns={columns}
          getRowId={(e) => `${e.processName}/${e.errorCode}/${e.severity}`}
          emptyMessage={t('events.empty')}
          loading={query.isPending}
          rowTestId="event-row"
        />
      </Stack>
    </Card>
  );
}
