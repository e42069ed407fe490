import { useMemo, useState } from 'react';
import { Anchor, Badge, Box, Button, Checkbox, Grid, Group, MultiSelect, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { Link, useLocation } from 'react-router';
import {
  AREA_KINDS_INFRASTRUCTURE,
  AREA_PARENTS,
  toEntityKind,
  type AreaSummary,
  type InfrastructureAreaKind,
  type StatusAction,
} from '@railwatt/contracts';
import { DataTable } from '../../../../components/ui/data-table';
import { LazyAreaMap } from '../../../../components/ui/map';
import { SetStatusDialog } from '../../../../components/ui/set-status-dialog';
import { exportEntities } from '../../../../components/ui/entity-kit/entity-api';
import { OverviewToolbar, useOverviewActions } from '../../../../components/ui/status-change';
import type { ScreenProps } from '../../../../lib/routes';
import { areasListQuery, areaVersionsQuery, minimalAreasQuery, useAreaStatusChange } from '../../api/areas';
import { useAreaSummaryStore } from '../../hooks/area-summary-store';
import { useAreaContext } from '../../hooks/use-area-context';
import { useAreaSearch } from '../../hooks/use-area-search';
import { useAreasT } from '../../hooks/use-areas-t';
import { AreaPageTitle } from './area-page-title';
import { formatDate } from '../../../../lib/format';
import { ApiErrorText } from '../../../../components/ui/api-error';

const STATUS_ACTIONS: StatusAction[] = ['setactive', 'setinactive', 'approve', 'unapprove', 'retire'];
export const AREAS_OVERVIEW = '/infrastructure/areas/overview';

const kindOf = (area: AreaSummary): InfrastructureAreaKind => toEntityKind(area.type) as InfrastructureAreaKind;

/**
 * /infrastructure/areas/overview: areas filtered by type and state (defaults: settlement area, active
 * only), listed with select, expand (segments), export and set status, and shown on the map fitted to
 * the selection (to every listed area while nothing is selected), beside the table on a wide screen.
 */
export function AreasOverviewPage(props: Partial<ScreenProps>) {
  const { t, tRoot } = useAreasT();
  const location = useLocation();
  const showSummary = useAreaSummaryStore((s) => s.show);
  const { canWrite, canExport, timeZone } = useAreaContext();
  const { filter, update } = useAreaSearch();
  const list = useQuery(areasListQuery(filter));
  const areas = useMemo(() => list.data ?? [], [list.data]);

  // Parent names: every parent kind of the listed types (a grid area's energy use settlement area).
  const parentKind = filter.types.map((k) => AREA_PARENTS[k]?.kind).find((k) => k !== undefined);
  const parents = useQuery({ ...minimalAreasQuery(parentKind ?? 'energyusesettlementarea'), enabled: !!parentKind });
  const parentName = useMemo(() => {
    const names = new Map((parents.data ?? []).map((p) => [p.uuid, p.name]));
    return (ref: string | null) => (ref ? (names.get(ref) ?? ref) : '');
  }, [parents.data]);

  const [selected, setSelected] = useState<string[]>([]);
  const statusChange = useAreaStatusChange();
  const back = `${AREAS_OVERVIEW}${location.search}`;
  const { exportSelected, pickAction, dialogProps } = useOverviewActions({
    selected,
    clearSelection: () => setSelected([]),
    timeZone,
    t,
    submit: (change) =>
      statusChange.mutateAsync({
        ...change,
        areas: areas.filter((a) => selected.includes(a.uuid)).map((a) => ({ uuid: a.uuid, kind: kindOf(a) })),
      }),
    submitting: statusChange.isPending,
    showSummary,
    summaryPath: `${AREAS_OVERVIEW}/errorsummary`,
    parentPage: back,
    back,
    navigateOnSuccess: true,
  });

  const setFilter = (next: Partial<typeof filter>) => {
    // Reloading the areas clears the selection (product.md §4).
    setSelected([]);
    update({ ...filter, ...next });
  };

  const columns = useMemo<ColumnDef<AreaSummary>[]>(
    () => [
      { accessorKey: 'name', header: t('entry.name') },
      {
        id: 'type',
        header: t('entry.type'),
        cell: ({ row }) => tRoot(`map.area_types.${kindOf(row.original)}`, { defaultValue: row.original.type }),
      },
      { id: 'parent', header: t('entry.parent'), cell: ({ row }) => parentName(row.original.parentRef) },
      {
        id: 'validFrom',
        header: t('entry.valid_from'),
        cell: ({ row }) => formatDate(row.original.validFrom, timeZone),
      },
      { id: 'validTo', header: t('entry.valid_to'), cell: ({ row }) => formatDate(row.original.validTo, timeZone) },
      {
        id: 'status',
        header: t('entry.status'),
        cell: ({ row }) => (
          <Badge variant="light" color={row.original.active ? 'green' : 'gray'} data-testid="area-status">
            {t(`state.${row.original.state}`, { defaultValue: row.original.state })}
          </Badge>
        ),
      },
      {
        id: 'links',
        header: () => null,
        cell: ({ row }) => (
          <Group gap="xs" wrap="nowrap">
            {canWrite && (
              <Anchor
                component={Link}
                to={`/infrastructure/areas/registration?uuid=${row.original.uuid}&type=${kindOf(row.original)}`}
                size="sm"
              >
                {t('overview.edit')}
              </Anchor>
            )}
            <Anchor
              component={Link}
              to={`/infrastructure/segmentshistory?uuid=${row.original.uuid}&type=${kindOf(row.original)}`}
              size="sm"
            >
              {t('overview.history')}
            </Anchor>
          </Group>
        ),
      },
    ],
    [t, tRoot, timeZone, canWrite, parentName],
  );

  const typeOptions = AREA_KINDS_INFRASTRUCTURE.map((kind) => ({
    value: kind,
    label: tRoot(`map.area_types.${kind}`),
  }));

  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <AreaPageTitle screen={props} fallbackKey="overview.title" />
        {canWrite && (
          <Button component={Link} to="/infrastructure/areas/registration" variant="outline">
            {t('overview.register')}
          </Button>
        )}
      </Group>

      <Group align="flex-end" gap="md">
        <MultiSelect
          label={t('overview.area_types')}
          data={typeOptions}
          value={filter.types}
          onChange={(value) =>
            setFilter({ types: (value.length > 0 ? value : ['settlementarea']) as InfrastructureAreaKind[] })
          }
          searchable
          maxDropdownHeight={6 * 36}
          w={420}
          data-testid="area-type-filter"
        />
        <Checkbox
          label={t('overview.active')}
          checked={filter.active}
          onChange={(e) => setFilter({ active: e.currentTarget.checked })}
          data-testid="area-active-filter"
        />
        <Checkbox
          label={t('overview.inactive')}
          checked={filter.inactive}
          onChange={(e) => setFilter({ inactive: e.currentTarget.checked })}
          data-testid="area-inactive-filter"
        />
      </Group>

      <ApiErrorText error={list.isError ? list.error : null} fallback={t('overview.load_failed')} />

      {/* Beside the table from 1200 px (Mantine's lg), the map kept in view while the table scrolls;
          under it on a narrower screen (issue 18 item 8). */}
      <Grid gutter="md" data-testid="areas-layout">
        <Grid.Col span={{ base: 12, lg: 7 }}>
          <DataTable
            data={areas}
            columns={columns}
            getRowId={(row) => row.uuid}
            emptyMessage={t('overview.empty')}
            loading={list.isFetching}
            data-testid="areas-table"
            rowTestId="area-row"
            selection={{ selected, onChange: setSelected }}
            renderExpanded={(row) => <AreaSegments area={row} />}
            toolbar={
              <OverviewToolbar
                t={t}
                onExport={canExport ? () => void exportSelected(exportEntities) : undefined}
                statusActions={canWrite ? STATUS_ACTIONS : undefined}
                selectedCount={selected.length}
                onPickStatus={pickAction}
              />
            }
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 5 }}>
          <Box pos="sticky" top={8}>
            <LazyAreaMap areas={areas} selected={selected} focus={selected} height={520} data-testid="areas-map" />
          </Box>
        </Grid.Col>
      </Grid>

      <SetStatusDialog {...dialogProps} />
    </Stack>
  );
}

/** The expanded row: the area's segments (current and superseded). */
function AreaSegments({ area }: { area: AreaSummary }) {
  const { t } = useAreasT();
  const { timeZone } = useAreaContext();
  const versions = useQuery(areaVersionsQuery(kindOf(area), area.uuid));
  if (versions.isPending) return <Text size="sm">{t('overview.loading_segments')}</Text>;
  const segments = [...(versions.data ?? [])].sort((a, b) => a.timeRange.start.localeCompare(b.timeRange.start));
  return (
    <Table fz="sm" data-testid="area-segments">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('entry.name')}</Table.Th>
          <Table.Th>{t('entry.valid_from')}</Table.Th>
          <Table.Th>{t('entry.valid_to')}</Table.Th>
          <Table.Th>{t('entry.status')}</Table.Th>
          <Table.Th>{t('history.comments')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {segments.map((s, i) => (
          <Table.Tr key={s.id ?? i} opacity={s.supersededAt ? 0.6 : 1}>
            <Table.Td>{s.name}</Table.Td>
            <Table.Td>{formatDate(s.timeRange.start, timeZone)}</Table.Td>
            <Table.Td>{formatDate(s.timeRange.end, timeZone)}</Table.Td>
            <Table.Td>{t(`state.${s.state}`, { defaultValue: s.state })}</Table.Td>
            <Table.Td>{s.comments ?? ''}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
