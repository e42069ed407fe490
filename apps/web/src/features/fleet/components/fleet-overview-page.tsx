import { useMemo, useState } from 'react';
import { Anchor, Badge, Button, Group, SegmentedControl, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useLocation } from 'react-router';
import { useFleetT } from '../hooks/use-fleet-t';
import type { ColumnDef } from '@tanstack/react-table';
import { type FleetEntry, type FleetSearchMode, type StatusAction } from '@railwatt/contracts';
import { DataTable } from '../../../components/ui/data-table';
import { SetStatusDialog } from '../../../components/ui/set-status-dialog';
import { OverviewToolbar, useOverviewActions } from '../../../components/ui/status-change';
import { fleetListQuery } from '../api/fleet-queries';
import { exportEntities } from '../../../components/ui/entity-kit/entity-api';
import { exportMasterdata, useStatusChange } from '../api/fleet-mutations';
import { toFleetFilter, useFleetSearch, type FleetFilterFields } from '../hooks/use-fleet-search';
import { useFleetContext } from '../hooks/use-fleet-context';
import { useStatusSummaryStore } from '../hooks/status-summary-store';
import { FleetFilters } from './fleet-filters';
import { formatDate } from '../../../lib/format';
import type { ScreenProps } from '../../../lib/routes';
import { FleetPageTitle } from './fleet-page-title';
import { ApiErrorText } from '../../../components/ui/api-error';

const STATUS_ACTIONS: StatusAction[] = ['setactive', 'setinactive', 'approve', 'unapprove', 'retire'];
const OVERVIEW = '/fleet/overview';
/**
 * Mantine's badge clips its label with an ellipsis and may shrink below its text, so in the wide fleet
 * table the state read "A...". At least as wide as its text, the badge keeps the whole state readable.
 */
const STATUS_BADGE_STYLES = {
  root: { minWidth: 'max-content', overflow: 'visible' },
  label: { overflow: 'visible', textOverflow: 'clip' },
} as const;

/** /fleet/overview: search, page, select, export and change the status of traction units. */
export function FleetOverviewPage(props: Partial<ScreenProps>) {
  const { t } = useFleetT();
  const location = useLocation();
  const showSummary = useStatusSummaryStore((s) => s.show);
  const { canWrite, toRange, timeZone } = useFleetContext();
  const { search, update } = useFleetSearch();
  const mode: FleetSearchMode = search.mode ?? (canWrite ? 'OWN_READ_WRITE' : 'ALL_READ_ONLY');
  const writable = canWrite && mode === 'OWN_READ_WRITE';

  const filter = useMemo(() => toFleetFilter(search, mode, toRange), [search, mode, toRange]);
  const list = useQuery(fleetListQuery(filter, search.page, search.size));
  const rows = list.data?.content ?? [];

  const [selected, setSelected] = useState<string[]>([]);
  const statusChange = useStatusChange();
  const { showError, exportSelected, pickAction, dialogProps } = useOverviewActions({
    selected,
    clearSelection: () => setSelected([]),
    timeZone,
    t,
    submit: (change) => statusChange.mutateAsync({ ...change, uuids: selected, type: 'TractionUnit' }),
    submitting: statusChange.isPending,
    showSummary,
    summaryPath: `${OVERVIEW}/errorsummary`,
    parentPage: `${OVERVIEW}${location.search}`,
    // Back to the overview as the user left it (filters and page stay in the URL).
    back: location.pathname === OVERVIEW ? `${OVERVIEW}${location.search}` : OVERVIEW,
    navigateOnSuccess: true,
  });

  const applyFilters = (filters: FleetFilterFields) => {
    // A new search starts on page 1 and forgets the selection of the previous result.
    setSelected([]);
    update({ ...filters, page: 1 });
  };

  const onMasterdataExport = async () => {
    try {
      // Nothing selected: the current filters, so the file holds what the overview lists (all pages).
      await exportMasterdata(filter, selected);
    } catch (error) {
      showError(error);
    }
  };

  const columns = useMemo<ColumnDef<FleetEntry>[]>(
    () => [
      { accessorKey: 'evn', header: t('entry.evn') },
      { accessorKey: 'vkm', header: t('entry.vkm') },
      { accessorKey: 'nvr', header: t('entry.nvr') },
      { accessorKey: 'description', header: t('entry.description') },
      { accessorKey: 'tractionUnitName', header: t('entry.traction_unit_name') },
      { accessorKey: 'type', header: t('entry.type') },
      { accessorKey: 'responsible', header: t('entry.responsible') },
      {
        id: 'informationChangeDate',
        header: t('entry.information_change_date'),
        cell: ({ row }) => formatDate(row.original.informationChangeDate, timeZone),
      },
      {
        id: 'status',
        header: t('entry.status'),
        cell: ({ row }) => (
          <Badge
            variant="light"
            color={row.original.active ? 'green' : 'gray'}
            styles={STATUS_BADGE_STYLES}
            data-testid="fleet-status"
          >
            {t(`state.${row.original.status}`, { defaultValue: row.original.status })}
          </Badge>
        ),
      },
      { accessorKey: 'createdBy', header: t('entry.created_by') },
      { accessorKey: 'emsType', header: t('entry.ems_type') },
      { accessorKey: 'emsId', header: t('entry.ems_id') },
      {
        id: 'validFrom',
        header: t('entry.valid_from'),
        cell: ({ row }) => formatDate(row.original.validFrom, timeZone),
      },
      {
        id: 'validTo',
        header: t('entry.valid_to'),
        cell: ({ row }) => formatDate(row.original.validTo, timeZone),
      },
      {
        id: 'links',
        header: () => null,
        cell: ({ row }) => (
          <Group gap="xs" wrap="nowrap">
            {writable && row.original.writable && (
              <Anchor component={Link} to={`/fleet/registration?uuid=${row.original.uuid}`} size="sm">
                {t('overview.edit')}
              </Anchor>
            )}
            <Anchor
              component={Link}
              to={`/fleet/segmentshistory?uuid=${row.original.uuid}&type=tractionunit`}
              size="sm"
            >
              {t('overview.history')}
            </Anchor>
          </Group>
        ),
      },
    ],
    [t, timeZone, writable],
  );

  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <FleetPageTitle screen={props} fallbackKey="overview.title" />
        {canWrite && (
          <Group gap="xs">
            <Button component={Link} to="/fleet/registration" variant="outline">
              {t('overview.register')}
            </Button>
            <Button component={Link} to="/fleet/import" variant="outline">
              {t('overview.import')}
            </Button>
          </Group>
        )}
      </Group>

      <SegmentedControl
        aria-label={t('overview.search_mode')}
        value={mode}
        onChange={(value) => {
          setSelected([]);
          update({ mode: value as FleetSearchMode, page: 1 });
        }}
        data={[
          { value: 'ALL_READ_ONLY', label: t('overview.mode.ALL_READ_ONLY') },
          { value: 'OWN_READ_WRITE', label: t('overview.mode.OWN_READ_WRITE'), disabled: !canWrite },
          { value: 'OWN_READ_ONLY', label: t('overview.mode.OWN_READ_ONLY') },
        ]}
      />

      <FleetFilters
        // A new URL (back button, shared link) re-seeds the draft.
        key={JSON.stringify({ ...search, page: undefined, size: undefined, mode: undefined })}
        value={search}
        onSearch={applyFilters}
      />

      <ApiErrorText error={list.isError ? list.error : null} fallback={t('overview.load_failed')} />

      <DataTable
        data={rows}
        columns={columns}
        getRowId={(row) => row.uuid}
        emptyMessage={t('overview.empty')}
        loading={list.isFetching}
        data-testid="fleet-table"
        rowTestId="fleet-row"
        selection={{ selected, onChange: setSelected }}
        renderExpanded={(row) => <ConsumptionPointList entry={row} />}
        pagination={{
          page: search.page,
          size: search.size,
          totalPages: list.data?.totalPages ?? 1,
          totalElements: list.data?.totalElements,
          onChange: (next) => update(next),
        }}
        toolbar={
          <OverviewToolbar
            t={t}
            onExport={() => void exportSelected(exportEntities)}
            statusActions={writable ? STATUS_ACTIONS : undefined}
            selectedCount={selected.length}
            onPickStatus={pickAction}
          >
            <Button size="xs" variant="outline" onClick={() => void onMasterdataExport()}>
              {t('overview.export_masterdata')}
            </Button>
          </OverviewToolbar>
        }
      />

      <SetStatusDialog {...dialogProps} />
    </Stack>
  );
}

function ConsumptionPointList({ entry }: { entry: FleetEntry }) {
  const { t } = useFleetT();
  if (entry.consumptionPoints.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {t('overview.no_consumption_points')}
      </Text>
    );
  }
  return (
    <Table fz="sm" data-testid="consumption-points">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('cp.name')}</Table.Th>
          <Table.Th>{t('cp.cpid')}</Table.Th>
          <Table.Th>{t('cp.ems_id')}</Table.Th>
          <Table.Th>{t('cp.ems_type')}</Table.Th>
          <Table.Th>{t('cp.channels')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {entry.consumptionPoints.map((cp) => (
          <Table.Tr key={cp.uuid}>
            <Table.Td>{cp.name}</Table.Td>
            <Table.Td>{cp.cpid}</Table.Td>
            <Table.Td>{cp.emsId}</Table.Td>
            <Table.Td>{cp.emsType ?? ''}</Table.Td>
            <Table.Td>{cp.channels ?? ''}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
