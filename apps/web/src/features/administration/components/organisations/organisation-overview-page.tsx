import { useMemo, useState } from 'react';
import { Anchor, Badge, Button, Checkbox, Group, Stack } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { Link, useSearchParams } from 'react-router';
import {
  excelCalls,
  ORGANISATION_TYPES,
  POLICIES,
  policyAdmits,
  type OrganisationType,
  type VersionedEntity,
} from '@railwatt/contracts';
import { DataTable } from '../../../../components/ui/data-table';
import { dayInZone, formatDay } from '../../../../components/ui/set-status-dialog';
import {
  ImportErrorScreen,
  singleFailure,
  UploadDialog,
  type UploadFileResult,
} from '../../../../components/ui/upload-dialog';
import type { Translate } from '../../../../lib/errors';
import type { ScreenProps } from '../../../../lib/routes';
import { useMarketStore } from '../../../../lib/stores/market-store';
import { useModalStore } from '../../../../lib/stores/modal-store';
import {
  createOrganisationsUpload,
  createServiceAccountUpload,
  exportOrganisations,
  organisationKeys,
  organisationListQuery,
} from '../../api/organisations';
import { useAdminT } from '../../hooks/use-admin-t';
import { AdminPageTitle } from '../admin-page-title';
import { ORGANISATION_PATHS } from './organisation-registration-page';
import { ApiErrorText, useErrorModal } from '../../../../components/ui/api-error';
import { SearchForm } from '../search-form';

const PAGE_SIZES = [10, 50, 100];
const DEFAULT_SIZE = 10;
const XLSX = { 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': ['.xlsx'] };
const JSON_FILE = { 'application/json': ['.json'] };
/** Europe/Oslo when no area is chosen yet (the Master Data zone, product.md §9). */
const FALLBACK_ZONE = 'Europe/Oslo';

const typesOf = (o: VersionedEntity): OrganisationType[] =>
  Array.isArray(o.organisationTypes)
    ? (o.organisationTypes as unknown[]).filter((t): t is OrganisationType =>
        (ORGANISATION_TYPES as readonly unknown[]).includes(t),
      )
    : [];
/** dd.MM.yyyy in the area's zone; the open ends of time (1970, 2070) show empty. */
const shownDay = (instant: string, timeZone: string): string =>
  instant.startsWith('1970-01-01') || instant.startsWith('2070-01-01') ? '' : formatDay(dayInZone(instant, timeZone));
const text = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Search, inactive toggle, page and page size in the URL (STYLE.md §5); the list is paged here. */
function useOrganisationSearch() {
  const [params, setParams] = useSearchParams();
  const positive = (name: string, fallback: number) => {
    const n = Number(params.get(name));
    return Number.isInteger(n) && n > 0 ? n : fallback;
  };
  const size = positive('size', DEFAULT_SIZE);
  const search = {
    searchString: params.get('search') ?? '',
    includeInactive: params.get('inactive') === 'true',
    page: positive('page', 1),
    size: PAGE_SIZES.includes(size) ? size : DEFAULT_SIZE,
  };
  const update = (next: Partial<typeof search>) => {
    const merged = { ...search, ...next };
    const out = new URLSearchParams();
    if (merged.searchString) out.set('search', merged.searchString);
    if (merged.includeInactive) out.set('inactive', 'true');
    if (merged.page !== 1) out.set('page', String(merged.page));
    if (merged.size !== DEFAULT_SIZE) out.set('size', String(merged.size));
    setParams(out);
  };
  return { search, update };
}

/**
 * /administration/organisation/overview: search and select organisations, export them
 * (exportedorganisations.xlsx), import workbooks (organisation_upload) and upload an organisation's
 * service account (serviceaccount_upload).
 */
export function OrganisationOverviewPage(props: Partial<ScreenProps>) {
  const { t, tRoot } = useAdminT();
  const queryClient = useQueryClient();
  const openModal = useModalStore((s) => s.open);
  const showError = useErrorModal();
  const roles = useMarketStore((s) => s.rolesInArea);
  const areaKind = useMarketStore((s) => s.area?.kind ?? null);
  const timeZone = useMarketStore((s) => s.timeZone) ?? FALLBACK_ZONE;
  const kind = areaKind === 'masterdata' ? null : areaKind;
  const canWrite = policyAdmits(POLICIES.organisationWrite, roles, kind);
  // The export's call admits fewer roles than the page (domainRead: not the consumer).
  const canExport = policyAdmits(excelCalls.organisationExport.access, roles, kind);
  const { search, update } = useOrganisationSearch();
  const list = useQuery(organisationListQuery(search.includeInactive));
  const [selected, setSelected] = useState<string[]>([]);
  const [importOpen, setImportOpen] = useState(false);
  const [importError, setImportError] = useState<UploadFileResult | null>(null);
  const [credentialsOf, setCredentialsOf] = useState<VersionedEntity | null>(null);

  const tr: Translate = (key, options) => t(key, options ?? {});
  const importUpload = useMemo(() => createOrganisationsUpload(tr, tRoot), [t, tRoot]); // eslint-disable-line react-hooks/exhaustive-deps
  const serviceAccountUpload = useMemo(
    () =>
      credentialsOf
        ? createServiceAccountUpload({ uuid: credentialsOf.uuid, organisationTypes: typesOf(credentialsOf) }, tr, tRoot)
        : null,
    [credentialsOf, t, tRoot], // eslint-disable-line react-hooks/exhaustive-deps
  );

  const filtered = useMemo(() => {
    const needle = search.searchString.toLowerCase();
    return (list.data ?? [])
      .filter((o) => !needle || o.name.toLowerCase().includes(needle) || text(o.orgId).toLowerCase().includes(needle))
      .sort((a, b) => a.name.localeCompare(b.name, undefined, { numeric: true, sensitivity: 'base' }));
  }, [list.data, search.searchString]);
  const totalPages = Math.max(1, Math.ceil(filtered.length / search.size));
  const rows = filtered.slice((search.page - 1) * search.size, search.page * search.size);

  const onExport = async () => {
    if (selected.length === 0) {
      openModal({ type: 'error', message: t('organisations.overview.no_entities_selected') });
      return;
    }
    try {
      await exportOrganisations(selected);
    } catch (error) {
      showError(error);
    }
  };

  const onImportComplete = (results: UploadFileResult[]) => {
    if (results.some((r) => r.outcome.status !== 'failed')) {
      void queryClient.invalidateQueries({ queryKey: organisationKeys.all });
    }
    const failed = singleFailure(results);
    setImportError(failed);
    if (failed) setImportOpen(false);
  };

  const columns = useMemo<ColumnDef<VersionedEntity>[]>(
    () => [
      { accessorKey: 'name', header: t('organisations.field.name') },
      { id: 'orgId', header: t('organisations.field.org_id'), cell: ({ row }) => text(row.original.orgId) },
      {
        id: 'types',
        header: t('organisations.field.organisation_types'),
        cell: ({ row }) =>
          typesOf(row.original)
            .map((type) => t(`organisations.type.${type}`))
            .join(', '),
      },
      {
        id: 'marketFunctions',
        header: t('organisations.field.market_functions'),
        cell: ({ row }) =>
          Array.isArray(row.original.marketFunctions)
            ? (row.original.marketFunctions as unknown[]).map((f) => t(`roles.${text(f)}`)).join(', ')
            : '',
      },
      { id: 'emails', header: t('organisations.field.emails'), cell: ({ row }) => text(row.original.emails) },
      {
        id: 'status',
        header: t('organisations.field.status'),
        cell: ({ row }) => (
          <Badge variant="light" color={row.original.active ? 'green' : 'gray'}>
            {t(row.original.active ? 'organisations.overview.active' : 'organisations.overview.inactive')}
          </Badge>
        ),
      },
      {
        id: 'validFrom',
        header: t('organisations.field.valid_from'),
        cell: ({ row }) => shownDay(row.original.timeRange.start, timeZone),
      },
      {
        id: 'validTo',
        header: t('organisations.field.valid_to'),
        cell: ({ row }) => shownDay(row.original.timeRange.end, timeZone),
      },
      {
        id: 'links',
        header: () => null,
        cell: ({ row }) =>
          canWrite && (
            <Group gap="xs" wrap="nowrap">
              <Anchor component={Link} to={`${ORGANISATION_PATHS.registration}?uuid=${row.original.uuid}`} size="sm">
                {t('organisations.overview.edit')}
              </Anchor>
              <Anchor component="button" type="button" size="sm" onClick={() => setCredentialsOf(row.original)}>
                {t('organisations.overview.credentials')}
              </Anchor>
            </Group>
          ),
      },
    ],
    [t, canWrite, timeZone],
  );

  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <AdminPageTitle screen={props} fallbackKey="organisations.overview.title" />
        {canWrite && (
          <Group gap="xs">
            <Button component={Link} to={ORGANISATION_PATHS.registration} variant="outline">
              {t('organisations.overview.register')}
            </Button>
            <Button
              variant="outline"
              onClick={() => {
                setImportError(null);
                setImportOpen(true);
              }}
            >
              {t('organisations.overview.import')}
            </Button>
          </Group>
        )}
      </Group>

      <SearchForm
        initial={search.searchString}
        label={t('organisations.overview.search')}
        buttonLabel={t('organisations.overview.search')}
        onSearch={(searchString) => {
          setSelected([]);
          update({ searchString, page: 1 });
        }}
      >
        <Checkbox
          label={t('organisations.overview.include_inactive')}
          checked={search.includeInactive}
          onChange={(e) => {
            setSelected([]);
            update({ includeInactive: e.currentTarget.checked, page: 1 });
          }}
        />
      </SearchForm>

      <ApiErrorText error={list.isError ? list.error : null} fallback={t('organisations.overview.load_failed')} />

      {importError && <ImportErrorScreen result={importError} t={t} prefix="organisations.import" />}

      <DataTable
        data={rows}
        columns={columns}
        getRowId={(row) => row.uuid}
        emptyMessage={t('organisations.overview.empty')}
        loading={list.isFetching}
        data-testid="organisation-table"
        rowTestId="organisation-row"
        selection={{ selected, onChange: setSelected }}
        pagination={{
          page: Math.min(search.page, totalPages),
          size: search.size,
          totalPages,
          totalElements: filtered.length,
          onChange: (next) => update(next),
        }}
        toolbar={
          canExport && (
            <Button size="xs" variant="outline" onClick={() => void onExport()}>
              {t('organisations.overview.export')}
            </Button>
          )
        }
      />

      {/* Mounted only while open: the page holds two upload dialogs (organisations, service account). */}
      {importOpen && (
        <UploadDialog
          opened
          onClose={() => setImportOpen(false)}
          title={t('organisations.import.dialog_title')}
          upload={importUpload}
          accept={XLSX}
          onComplete={onImportComplete}
        />
      )}
      {serviceAccountUpload && credentialsOf && (
        <UploadDialog
          opened
          onClose={() => setCredentialsOf(null)}
          title={t('organisations.credentials.dialog_title', { name: credentialsOf.name })}
          upload={serviceAccountUpload}
          accept={JSON_FILE}
          maxFiles={1}
        />
      )}
    </Stack>
  );
}
