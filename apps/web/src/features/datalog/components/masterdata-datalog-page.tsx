import { useMemo, useState } from 'react';
import { Button, Group, MultiSelect, Paper, Stack, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import {
  masterDataDownloadType,
  PAGE_SIZES,
  type MasterDataDownloadType,
  type MasterDataLogEntry,
} from '@railwatt/contracts';
import { useErrorModal } from '../../../components/ui/api-error';
import { DataTable } from '../../../components/ui/data-table';
import { formatDateTime } from '../../../lib/format';
import type { ScreenProps } from '../../../lib/routes';
import { MASTER_DATA_AREA } from '@railwatt/contracts';
import { downloadMasterData } from '../api/datalog-mutations';
import {
  masterDataLogQuery,
  masterDataStatusesQuery,
  masterDataTypesQuery,
  type MasterDataQuery,
} from '../api/datalog-queries';
import { useDataLogT } from '../hooks/use-datalog-t';
import { FileName, StatusBadge } from './datalog-cells';
import { DataLogPageTitle } from './datalog-page-title';

/**
 * /monitor/datalog in master-data mode (calls.md §7 "Master-data data log"): the transfers of the
 * administrator's areas, paged, with downloads (in and out as TRANSFER, internal as INTERNAL, and
 * the response file when there is one).
 */
export function MasterDataLogPage(props: Partial<ScreenProps>) {
  const { t } = useDataLogT();
  const showError = useErrorModal();
  const [query, setQuery] = useState<MasterDataQuery>({ page: 0, size: PAGE_SIZES.dataLog });
  const [draft, setDraft] = useState<Omit<MasterDataQuery, 'page' | 'size'>>({});
  const list = useQuery(masterDataLogQuery(query));
  const types = useQuery(masterDataTypesQuery());
  const statuses = useQuery(masterDataStatusesQuery());
  const timeZone = MASTER_DATA_AREA.timeZone;

  const download = (entry: MasterDataLogEntry, kind: MasterDataDownloadType) => () => {
    downloadMasterData(entry, kind).catch((error: unknown) => showError(error));
  };

  const columns = useMemo<ColumnDef<MasterDataLogEntry>[]>(
    () => [
      {
        id: 'logTimeStamp',
        header: t('column.logTimeStamp'),
        cell: ({ row }) => formatDateTime(row.original.logTimeStamp, timeZone),
      },
      { id: 'area', header: t('column.area'), accessorKey: 'areaName' },
      {
        id: 'type',
        header: t('column.transferType'),
        cell: ({ row }) => t(`type.${row.original.type}`, { defaultValue: row.original.type }),
      },
      { id: 'mode', header: t('column.mode'), cell: ({ row }) => t(`mode.${row.original.mode}`) },
      {
        id: 'status',
        header: t('column.messageStatus'),
        cell: ({ row }) => <StatusBadge status={row.original.status} />,
      },
      { id: 'fileName', header: t('column.fileName'), cell: ({ row }) => <FileName name={row.original.fileName} /> },
      {
        id: 'fileNameResponse',
        header: t('column.fileNameResponse'),
        cell: ({ row }) => <FileName name={row.original.fileNameResponse} />,
      },
      { id: 'username', header: t('column.username'), accessorKey: 'username' },
      { id: 'messageText', header: t('column.messageText'), accessorKey: 'messageText' },
      {
        id: 'actions',
        header: () => null,
        cell: ({ row }) => (
          <Group gap={4} wrap="nowrap">
            {row.original.fileName && (
              <Button
                size="compact-xs"
                variant="subtle"
                onClick={download(row.original, masterDataDownloadType(row.original.type))}
              >
                {t('actions.download')}
              </Button>
            )}
            {row.original.fileName?.toLowerCase().endsWith('.gz') && (
              <Button size="compact-xs" variant="subtle" onClick={download(row.original, 'TRANSFER_DECOMPRESSED')}>
                {t('actions.downloadDecompressed')}
              </Button>
            )}
            {row.original.fileNameResponse && (
              <Button size="compact-xs" variant="subtle" onClick={download(row.original, 'RESPONSE')}>
                {t('actions.downloadResponse')}
              </Button>
            )}
          </Group>
        ),
      },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t, timeZone],
  );

  return (
    <Stack gap="sm">
      <DataLogPageTitle screen={props} fallbackKey="masterDataTitle" />
      <Paper withBorder p="sm">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            setQuery({ ...draft, page: 0, size: query.size });
          }}
        >
          <Group align="flex-end" gap="xs">
            <MultiSelect
              label={t('filter.types')}
              data={(types.data ?? []).map((v) => ({ value: v, label: t(`type.${v}`, { defaultValue: v }) }))}
              value={draft.typeName ?? []}
              onChange={(v) => setDraft((d) => ({ ...d, typeName: v }))}
            />
            <MultiSelect
              label={t('filter.statuses')}
              data={(statuses.data ?? []).map((v) => ({
                value: v,
                label: t(`status.${v.toLowerCase()}`, { defaultValue: v }),
              }))}
              value={draft.status ?? []}
              onChange={(v) => setDraft((d) => ({ ...d, status: v }))}
            />
            <TextInput
              label={t('filter.fileName')}
              value={draft.fileName ?? ''}
              onChange={(e) => setDraft((d) => ({ ...d, fileName: e.currentTarget.value }))}
            />
            <Button type="submit">{t('search')}</Button>
          </Group>
        </form>
      </Paper>
      {/* calls.md §8: a master-data log loading failure only stops the loading indicator. */}
      <DataTable
        data={list.data?.content ?? []}
        columns={columns}
        getRowId={(row) => String(row.id)}
        emptyMessage={t('empty')}
        loading={list.isFetching}
        data-testid="masterdata-datalog-table"
        rowTestId="masterdata-datalog-row"
        pagination={{
          page: query.page + 1,
          size: query.size,
          totalPages: list.data?.page.totalPages ?? 1,
          totalElements: list.data?.page.totalElements,
          onChange: (next) => setQuery((q) => ({ ...q, page: next.page - 1, size: next.size })),
        }}
      />
    </Stack>
  );
}
