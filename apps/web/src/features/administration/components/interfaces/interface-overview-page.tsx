import { useCallback, useMemo, useState } from 'react';
import { Alert, Anchor, Badge, Button, Group, Select, Stack, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { Link } from 'react-router';
import { z } from 'zod';
import {
  INTERFACE_DIRECTIONS,
  INTERFACE_SERVER_TYPES,
  INTERFACE_TYPES,
  PAGINATION_OPTIONS,
  type InterfaceRoute,
  type InterfaceRouteTestResult,
} from '@railwatt/contracts';
import { DataTable } from '../../../../components/ui/data-table';
import { PageTitle } from '../../../../components/ui/page-title';
import type { ScreenProps } from '../../../../lib/routes';
import { useModalStore } from '../../../../lib/stores/modal-store';
import {
  exportInterfaceConfigurations,
  interfaceListQuery,
  useEnableDisableRoutes,
  useTestConnection,
} from '../../api/interfaces';
import { TestConnectionResult } from './test-connection-result';
import { useInterfacesT } from './use-interfaces-t';
import { ApiErrorText, useErrorModal } from '../../../../components/ui/api-error';
import { useUrlSearch } from '../../../../lib/use-url-search';

const DEFAULT_PAGE_SIZE = 20;

/** The overview's state in the URL (STYLE.md §5); anything unreadable falls back to its default. */
export const interfaceSearchSchema = z.object({
  interfaceType: z.enum(INTERFACE_TYPES).optional().catch(undefined),
  direction: z.enum(INTERFACE_DIRECTIONS).optional().catch(undefined),
  serverType: z.enum(INTERFACE_SERVER_TYPES).optional().catch(undefined),
  enabled: z.enum(['true', 'false']).optional().catch(undefined),
  search: z.string().max(200).optional().catch(undefined),
  page: z.coerce.number().int().min(1).catch(1).default(1),
  size: z.coerce
    .number()
    .int()
    .refine((n) => (PAGINATION_OPTIONS as readonly number[]).includes(n) || n === DEFAULT_PAGE_SIZE)
    .catch(DEFAULT_PAGE_SIZE)
    .default(DEFAULT_PAGE_SIZE),
});
export type InterfaceSearch = z.infer<typeof interfaceSearchSchema>;

function useInterfaceSearch() {
  return useUrlSearch(interfaceSearchSchema);
}

/** /administration/interface/overview: list, filter, enable/disable, export and test SFTP routes. */
export function InterfaceOverviewPage(props: ScreenProps) {
  const { t } = useInterfacesT();
  const openModal = useModalStore((s) => s.open);
  const { search, update } = useInterfaceSearch();
  const filter = {
    interfaceType: search.interfaceType,
    direction: search.direction,
    serverType: search.serverType,
    enabled: search.enabled === undefined ? undefined : search.enabled === 'true',
    search: search.search || undefined,
  };
  const list = useQuery(interfaceListQuery({ ...filter, page: search.page, size: search.size }));
  const rows = list.data?.content ?? [];
  const [selected, setSelected] = useState<string[]>([]);
  const [draftSearch, setDraftSearch] = useState(search.search ?? '');
  const enableDisable = useEnableDisableRoutes();
  const test = useTestConnection();
  const [testResult, setTestResult] = useState<{ routeId: string; result: InterfaceRouteTestResult } | null>(null);

  const showError = useErrorModal();

  const applyFilter = (patch: Parameters<typeof update>[0]) => {
    setSelected([]);
    update({ ...patch, page: 1 });
  };

  const onEnable = async (enabled: boolean) => {
    try {
      await enableDisable.mutateAsync({ routeIds: selected, enabled });
      setSelected([]);
      openModal({ type: 'confirmation', message: t(enabled ? 'overview.enabled_done' : 'overview.disabled_done') });
    } catch (error) {
      showError(error);
    }
  };

  const onExport = async () => {
    try {
      await exportInterfaceConfigurations(selected.length > 0 ? { routeIds: selected } : filter);
    } catch (error) {
      showError(error);
    }
  };

  const onTest = useCallback(
    async (routeId: string) => {
      setTestResult(null);
      try {
        setTestResult({ routeId, result: await test.mutateAsync({ routeId }) });
      } catch (error) {
        showError(error);
      }
    },
    // showError only reads stable store functions and the translator.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [test.mutateAsync],
  );

  const columns = useMemo<ColumnDef<InterfaceRoute>[]>(
    () => [
      { accessorKey: 'routeId', header: t('field.routeId') },
      {
        id: 'interfaceType',
        header: t('field.interfaceType'),
        cell: ({ row }) => t(`type.${row.original.interfaceType}`, { defaultValue: row.original.interfaceType }),
      },
      { id: 'direction', header: t('field.direction'), cell: ({ row }) => t(`direction.${row.original.direction}`) },
      {
        id: 'serverType',
        header: t('field.serverType'),
        cell: ({ row }) => t(`serverType.${row.original.serverType}`),
      },
      { accessorKey: 'hostname', header: t('field.hostname') },
      { accessorKey: 'path', header: t('field.path') },
      {
        id: 'enabled',
        header: t('field.enabled'),
        cell: ({ row }) => (
          <Badge variant="light" color={row.original.enabled ? 'green' : 'gray'} data-testid="interface-enabled">
            {t(row.original.enabled ? 'overview.enabled' : 'overview.disabled')}
          </Badge>
        ),
      },
      {
        id: 'links',
        header: () => null,
        cell: ({ row }) => {
          const id = encodeURIComponent(row.original.routeId);
          return (
            <Group gap="xs" wrap="nowrap">
              <Anchor component={Link} to={`/administration/interface/registration?routeId=${id}`} size="sm">
                {t('overview.edit')}
              </Anchor>
              <Anchor component={Link} to={`/administration/interface/history?routeId=${id}`} size="sm">
                {t('overview.history')}
              </Anchor>
              <Anchor component="button" type="button" size="sm" onClick={() => void onTest(row.original.routeId)}>
                {t('overview.test_connection')}
              </Anchor>
            </Group>
          );
        },
      },
    ],
    [t, onTest],
  );

  const choice = <T extends string>(values: readonly T[], prefix: string) =>
    values.map((value) => ({ value, label: t(`${prefix}.${value}`, { defaultValue: value }) }));

  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <PageTitle {...props} />
        <Button component={Link} to="/administration/interface/registration" variant="outline">
          {t('overview.register')}
        </Button>
      </Group>

      <Group align="flex-end" gap="sm" data-testid="interface-filters">
        <Select
          label={t('field.interfaceType')}
          data={choice(INTERFACE_TYPES, 'type')}
          value={search.interfaceType ?? null}
          onChange={(v) => applyFilter({ interfaceType: v ?? undefined })}
          clearable
          w={200}
        />
        <Select
          label={t('field.direction')}
          data={choice(INTERFACE_DIRECTIONS, 'direction')}
          value={search.direction ?? null}
          onChange={(v) => applyFilter({ direction: v ?? undefined })}
          clearable
          w={140}
        />
        <Select
          label={t('field.serverType')}
          data={choice(INTERFACE_SERVER_TYPES, 'serverType')}
          value={search.serverType ?? null}
          onChange={(v) => applyFilter({ serverType: v ?? undefined })}
          clearable
          w={160}
        />
        <Select
          label={t('field.enabled')}
          data={[
            { value: 'true', label: t('overview.enabled') },
            { value: 'false', label: t('overview.disabled') },
          ]}
          value={search.enabled ?? null}
          onChange={(v) => applyFilter({ enabled: v ?? undefined })}
          clearable
          w={140}
        />
        <form
          onSubmit={(e) => {
            e.preventDefault();
            applyFilter({ search: draftSearch.trim() || undefined });
          }}
        >
          <Group gap="xs" align="flex-end">
            <TextInput
              label={t('overview.search')}
              value={draftSearch}
              onChange={(e) => setDraftSearch(e.currentTarget.value)}
              w={220}
            />
            <Button type="submit" variant="light">
              {t('overview.search_button')}
            </Button>
          </Group>
        </form>
      </Group>

      <ApiErrorText error={list.isError ? list.error : null} fallback={t('overview.load_failed')} />
      {test.isPending && <Alert color="blue">{t('test.running')}</Alert>}
      {testResult && <TestConnectionResult routeId={testResult.routeId} result={testResult.result} />}

      <DataTable
        data={rows}
        columns={columns}
        getRowId={(row) => row.routeId}
        emptyMessage={t('overview.empty')}
        loading={list.isFetching}
        data-testid="interface-table"
        rowTestId="interface-row"
        selection={{ selected, onChange: setSelected }}
        pagination={{
          page: search.page,
          size: search.size,
          totalPages: list.data?.totalPages ?? 1,
          totalElements: list.data?.totalElements,
          onChange: (next) => update(next),
        }}
        toolbar={
          <>
            <Button size="xs" variant="outline" onClick={() => void onExport()}>
              {t('overview.export')}
            </Button>
            <Button size="xs" disabled={selected.length === 0} onClick={() => void onEnable(true)}>
              {t('overview.enable')}
            </Button>
            <Button size="xs" color="gray" disabled={selected.length === 0} onClick={() => void onEnable(false)}>
              {t('overview.disable')}
            </Button>
          </>
        }
      />
    </Stack>
  );
}
