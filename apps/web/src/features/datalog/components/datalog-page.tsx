import { useCallback, useMemo } from 'react';
import { Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { allowedActions, policyAdmits, POLICIES, type DataLogEntry } from '@railwatt/contracts';
import { DataTable } from '../../../components/ui/data-table';
import { TimeSeriesUploadButton } from '../../../components/ui/upload-dialog';
import { formatDateTime } from '../../../lib/format';
import type { ScreenProps } from '../../../lib/routes';
import { useMarketStore } from '../../../lib/stores/market-store';
import { dataLogKeys, dataLogListQuery } from '../api/datalog-queries';
import { toDataLogQuery, useDataLogSearch, type DataLogFilterFields } from '../hooks/use-datalog-search';
import { useDataLogT } from '../hooks/use-datalog-t';
import { DataLogActions } from './datalog-actions';
import { FileName, StatusBadge, TimeSeriesDetails } from './datalog-cells';
import { DataLogFilters } from './datalog-filters';
import { DataLogPageTitle } from './datalog-page-title';

const FALLBACK_ZONE = 'Europe/Oslo';

/** /monitor/datalog, settlement variant (calls.md §3, §4, §7): filter, sort, page and act on entries. */
export function DataLogPage(props: Partial<ScreenProps>) {
  const { t } = useDataLogT();
  const roles = useMarketStore((s) => s.rolesInArea);
  const area = useMarketStore((s) => s.area?.kind ?? null);
  const timeZone = useMarketStore((s) => s.timeZone) ?? FALLBACK_ZONE;
  const { search, update } = useDataLogSearch();
  // The page's route admits every Monitor role (the exchange variant shares it); the settlement
  // log's calls admit the dataLogRead roles only, so others see a notice instead of refusals.
  const mayRead = policyAdmits(POLICIES.dataLogRead, roles, area);
  // The roles that may upload time series (TIME_SERIES_IMPORTERS) upload from here too (issue 8).
  const mayUpload = policyAdmits(POLICIES.timeSeriesImport, roles, area);
  const queryClient = useQueryClient();
  // An accepted file's entry appears RUNNING and gets its outcome when its import job ends.
  const refresh = useCallback(
    () => void queryClient.invalidateQueries({ queryKey: dataLogKeys.lists() }),
    [queryClient],
  );
  const query = useMemo(() => toDataLogQuery(search, timeZone), [search, timeZone]);
  const list = useQuery({ ...dataLogListQuery(query), enabled: mayRead });
  const rows = list.data?.content ?? [];

  const applyFilters = (filters: DataLogFilterFields) =>
    // calls.md §4: a new search resets sorting to logTimeStamp (newest first) and the page to 1.
    update({ ...filters, sortBy: 'logTimeStamp', desc: true, page: 1 });
  const onSort = (column: string) =>
    update({
      sortBy: column as typeof search.sortBy,
      desc: search.sortBy === column ? !search.desc : true,
      page: 1,
    });

  const columns = useMemo<ColumnDef<DataLogEntry>[]>(() => {
    return [
      {
        id: 'logTimeStamp',
        header: t('column.logTimeStamp'),
        enableSorting: true,
        cell: ({ row }) => formatDateTime(row.original.logTimeStamp, timeZone),
      },
      {
        id: 'messageType',
        header: t('column.messageType'),
        enableSorting: true,
        cell: ({ row }) => t(`type.${row.original.messageType}`, { defaultValue: row.original.messageType }),
      },
      {
        id: 'messageStatus',
        header: t('column.messageStatus'),
        enableSorting: true,
        cell: ({ row }) => <StatusBadge status={row.original.messageStatus} />,
      },
      {
        id: 'fileName',
        header: t('column.fileName'),
        enableSorting: true,
        cell: ({ row }) => <FileName name={row.original.fileName} />,
      },
      {
        id: 'messageText',
        header: t('column.messageText'),
        cell: ({ row }) => (
          <Text size="sm" style={{ whiteSpace: 'pre-line', maxWidth: 480 }}>
            {row.original.messageText ?? ''}
          </Text>
        ),
      },
      { id: 'username', header: t('column.username'), enableSorting: true, accessorKey: 'username' },
      { id: 'destination', header: t('column.destination'), accessorKey: 'destination' },
      {
        id: 'actions',
        header: () => null,
        cell: ({ row }) => <DataLogActions entry={row.original} allowed={allowedActions(row.original, roles, area)} />,
      },
    ];
    // onSort reads `search`, which the dependencies cover.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [t, timeZone, roles, area, search.sortBy, search.desc]);

  if (!mayRead) {
    return (
      <Stack gap="sm">
        <DataLogPageTitle screen={props} fallbackKey="title" />
        <Text data-testid="datalog-not-for-role">{t('notForRole')}</Text>
      </Stack>
    );
  }

  return (
    <Stack gap="sm">
      <DataLogPageTitle screen={props} fallbackKey="title" />
      {mayUpload && <TimeSeriesUploadButton onUploaded={refresh} onJobFinished={refresh} />}
      <DataLogFilters
        // A new URL (back button, shared link) re-seeds the draft.
        key={JSON.stringify({ ...search, page: undefined, size: undefined, sortBy: undefined, desc: undefined })}
        value={search}
        onSearch={applyFilters}
      />
      {/* calls.md §8: a data-log loading failure only stops the loading indicator (no message). */}
      <DataTable
        data={rows}
        columns={columns}
        getRowId={(row) => String(row.id)}
        emptyMessage={t('empty')}
        loading={list.isFetching}
        data-testid="datalog-table"
        rowTestId="datalog-row"
        sort={{ sortBy: search.sortBy, descending: search.desc, onSort }}
        renderExpanded={(row) => (
          <TimeSeriesDetails
            entry={row}
            showValuesCount={allowedActions(row, roles, area).showValuesCount}
            timeZone={timeZone}
          />
        )}
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
