import { useCallback, useMemo, useState } from 'react';
import { Anchor, Badge, Button, Group, Select, Stack, Switch, Table } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useSearchParams } from 'react-router';
import {
  ENTITY_FORMS,
  ENTITY_KINDS,
  PAGINATION_OPTIONS,
  mainFieldsOf,
  type EntityFormKind,
  type EntityKind,
  type StatusAction,
  type VersionedEntity,
} from '@railwatt/contracts';
import { PageTitle } from '../page-title';
import { DataTable } from '../data-table';
import { SetStatusDialog } from '../set-status-dialog';
import { OverviewToolbar, useOverviewActions } from '../status-change';
import { entityListQuery, exportEntities, useEntityStatusChange, useMinimalEntities } from './entity-api';
import type { EntityPageProps } from './entity-registration-page';
import { formatDate, formatDateTime, formatDay, formatNumber, formatPercent } from '../../../lib/format';
import { registrationPathOf, type EntitySection } from './section';
import { useEntityStatusSummaryStore } from './status-summary-store';
import { useEntityKitContext, useEntityKitT } from './use-entity-kit';
import { ApiErrorText } from '../api-error';
import { LazyAreaMap } from '../map';
import { markersOf } from './entity-markers';

/** The status changes that apply to master data without a billing approval. */
const STATUS_ACTIONS: StatusAction[] = ['setactive', 'setinactive', 'retire'];
const DEFAULT_SIZE = 10;

/** The overview's state in the URL (STYLE.md §5): kind, includeInactive, page (1-based) and size. */
function useOverviewSearch(section: EntitySection) {
  const [params, setParams] = useSearchParams();
  const raw = params.get('kind') ?? '';
  const kind: EntityFormKind = (section.kinds as readonly string[]).includes(raw)
    ? (raw as EntityFormKind)
    : section.kinds[0]!;
  const includeInactive = params.get('inactive') === 'true';
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const sizeParam = Number(params.get('size'));
  const size = (PAGINATION_OPTIONS as readonly number[]).includes(sizeParam) ? sizeParam : DEFAULT_SIZE;
  const update = (patch: Record<string, string | number | boolean | undefined>) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      for (const [key, value] of Object.entries(patch)) {
        if (value === undefined || value === '' || value === false) next.delete(key);
        else next.set(key, String(value));
      }
      return next;
    });
  return { kind, includeInactive, page, size, update };
}

/**
 * A value of an entity as the overview shows it: references by name, booleans as yes/no, rates by
 * area as 'Nord-Norge: 0.5; Sør-Norge: 1' (the rates in the separators of the user's language).
 */
function useCellText(kind: EntityFormKind) {
  const { t } = useEntityKitT();
  const { i18n } = useTranslation();
  const language = i18n.language;
  const fields = ENTITY_FORMS[kind];
  const targets = fields.flatMap((f) => (mainFieldsOf(kind).includes(f.name) ? (f.targets ?? []) : []));
  const { entities } = useMinimalEntities(targets as EntityKind[]);
  return useMemo(() => {
    const names = new Map(entities.map((e) => [e.uuid, e.name]));
    return (field: string, value: unknown): string => {
      if (value === undefined || value === null) return '';
      if (typeof value === 'boolean') return value ? t('yes') : t('no');
      // Numbers in the separators of the user's language: at most 4 decimals, a percentage with 2.
      if (typeof value === 'number')
        return field === 'percentage' ? formatPercent(value, language) : formatNumber(value, language);
      const descriptor = fields.find((f) => f.name === field);
      if (descriptor?.input === 'areaRates' && Array.isArray(value)) {
        return (
          value
            .map((v) => {
              const row = (typeof v === 'object' && v !== null ? v : {}) as { taxAreaRef?: unknown; rate?: unknown };
              const area = String(row.taxAreaRef ?? '');
              const rate = typeof row.rate === 'number' ? formatNumber(row.rate, language) : String(row.rate ?? '');
              return `${names.get(area) ?? area}: ${rate}`;
            })
            // Semicolons: a decimal comma (Norwegian "0,5") would read as a separator.
            .join('; ')
        );
      }
      if (Array.isArray(value)) return value.map((v) => names.get(String(v)) ?? String(v)).join(', ');
      if (descriptor?.input === 'reference') return names.get(String(value)) ?? String(value);
      // A calendar day (a public holiday's date) as every date on screen: dd.MM.yyyy.
      if (descriptor?.input === 'date') return formatDay(String(value));
      return String(value);
    };
  }, [entities, fields, t, language]);
}

/**
 * The entity overview of a section (entity/overview, entities/overview, exportlimitation/overview):
 * a kind selector, the kind's entities (GET /domain/{type}/all) with their main attributes, validity,
 * status and last change; select, expand to segments, export the selection, change status, edit and
 * open the segments history.
 */
export function EntityOverviewPage({ section, ...screen }: EntityPageProps) {
  const { t, kindLabel } = useEntityKitT();
  const location = useLocation();
  const showSummary = useEntityStatusSummaryStore((s) => s.show);
  const { canWrite, timeZone } = useEntityKitContext(section);
  const { kind, includeInactive, page, size, update } = useOverviewSearch(section);
  const list = useQuery(entityListQuery(kind, includeInactive));
  const rows = useMemo(() => list.data ?? [], [list.data]);
  const pageRows = rows.slice((page - 1) * size, page * size);
  const cellText = useCellText(kind);
  const mainFields = mainFieldsOf(kind);
  const hasLocation = ENTITY_FORMS[kind].some((f) => f.input === 'location');
  const markers = useMemo(() => (hasLocation ? markersOf(rows) : []), [hasLocation, rows]);

  const [selected, setSelected] = useState<string[]>([]);
  // Stable props, so the table keeps its checkbox cells mounted between renders (a click is not lost).
  const selection = useMemo(() => ({ selected, onChange: setSelected }), [selected]);
  const renderExpanded = useCallback(
    (row: VersionedEntity) => <SegmentList entity={row} timeZone={timeZone} />,
    [timeZone],
  );
  const statusChange = useEntityStatusChange();
  const here = `${location.pathname}${location.search}`;
  const { exportSelected, pickAction, dialogProps } = useOverviewActions({
    selected,
    clearSelection: () => setSelected([]),
    timeZone,
    t,
    submit: (change) => statusChange.mutateAsync({ ...change, uuids: selected, type: ENTITY_KINDS[kind] }),
    submitting: statusChange.isPending,
    showSummary,
    summaryPath: section.paths.errorSummary,
    parentPage: here,
    back: here,
    navigateOnSuccess: false,
  });

  const columns = useMemo<ColumnDef<VersionedEntity>[]>(
    () => [
      { accessorKey: 'name', header: t('field.name') },
      ...mainFields.map((field): ColumnDef<VersionedEntity> => ({
        id: field,
        header: t(`field.${field}`, { defaultValue: field }),
        cell: ({ row }) => cellText(field, (row.original as Record<string, unknown>)[field]),
      })),
      {
        id: 'validFrom',
        header: t('field.validFrom'),
        cell: ({ row }) => formatDate(row.original.timeRange.start, timeZone),
      },
      {
        id: 'validTo',
        header: t('field.validTo'),
        cell: ({ row }) => formatDate(row.original.timeRange.end, timeZone),
      },
      {
        id: 'status',
        header: t('field.status'),
        cell: ({ row }) => (
          <Badge variant="light" color={row.original.active ? 'green' : 'gray'} data-testid="entity-status">
            {t(`state.${row.original.state}`, { defaultValue: row.original.state })}
          </Badge>
        ),
      },
      {
        id: 'lastModified',
        header: t('field.lastModified'),
        cell: ({ row }) => `${formatDateTime(row.original.lastModified, timeZone)} ${row.original.lastModifiedBy}`,
      },
      {
        id: 'links',
        header: () => null,
        cell: ({ row }) => (
          <Group gap="xs" wrap="nowrap">
            {canWrite && (
              <Anchor component={Link} to={`${registrationPathOf(section, kind)}?uuid=${row.original.uuid}`} size="sm">
                {t('overview.edit')}
              </Anchor>
            )}
            <Anchor
              component={Link}
              to={`${section.paths.segmentsHistory}?uuid=${row.original.uuid}&type=${kind}`}
              size="sm"
            >
              {t('overview.history')}
            </Anchor>
          </Group>
        ),
      },
    ],
    [t, mainFields, cellText, timeZone, canWrite, section, kind],
  );

  return (
    <Stack gap="sm">
      <Group justify="space-between">
        {screen.titleKey ? <PageTitle titleKey={screen.titleKey} titleArgs={screen.titleArgs} /> : <span />}
        {canWrite && (
          <Group gap="xs">
            <Button component={Link} to={registrationPathOf(section, kind)} variant="outline">
              {t('overview.register')}
            </Button>
            {section.paths.import && (
              <Button component={Link} to={section.paths.import} variant="outline">
                {t('overview.import')}
              </Button>
            )}
          </Group>
        )}
      </Group>

      <Group align="flex-end">
        {section.kinds.length > 1 && (
          <Select
            label={t('overview.kind')}
            data={section.kinds.map((k) => ({ value: k, label: kindLabel(k) }))}
            value={kind}
            allowDeselect={false}
            onChange={(next) => {
              setSelected([]);
              update({ kind: next ?? undefined, page: undefined });
            }}
            w={320}
            data-testid="entity-kind-select"
          />
        )}
        <Switch
          mb={8}
          label={t('overview.include_inactive')}
          checked={includeInactive}
          onChange={(e) => {
            setSelected([]);
            update({ inactive: e.currentTarget.checked, page: undefined });
          }}
        />
      </Group>

      <ApiErrorText error={list.isError ? list.error : null} fallback={t('overview.load_failed')} />

      <DataTable
        data={pageRows}
        columns={columns}
        getRowId={(row) => row.uuid}
        emptyMessage={t('overview.empty')}
        loading={list.isFetching}
        data-testid="entity-table"
        rowTestId="entity-row"
        selection={selection}
        renderExpanded={renderExpanded}
        pagination={{
          page,
          size,
          totalPages: Math.max(1, Math.ceil(rows.length / size)),
          totalElements: rows.length,
          onChange: (next) => update({ page: next.page === 1 ? undefined : next.page, size: next.size }),
        }}
        toolbar={
          <OverviewToolbar
            t={t}
            onExport={() => void exportSelected(exportEntities)}
            statusActions={canWrite ? STATUS_ACTIONS : undefined}
            selectedCount={selected.length}
            onPickStatus={pickAction}
          />
        }
      />

      {hasLocation && (
        // Kinds with a location (metering points, crossings, payload points ...) are also shown where
        // they are: the listed ones as markers, fitted to the selection when there is one.
        <LazyAreaMap
          areas={NO_AREAS}
          markers={markers}
          focus={selected.length > 0 ? selected : EVERYTHING}
          height={360}
          data-testid="entity-map"
        />
      )}

      <SetStatusDialog {...dialogProps} />
    </Stack>
  );
}

const NO_AREAS: never[] = [];
const EVERYTHING: string[] = [];

/** The segments of an entity (expanded row): validity, name, status and comment of each version. */
function SegmentList({ entity, timeZone }: { entity: VersionedEntity; timeZone: string }) {
  const { t } = useEntityKitT();
  return (
    <Table fz="sm" data-testid="entity-segments">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('field.validFrom')}</Table.Th>
          <Table.Th>{t('field.validTo')}</Table.Th>
          <Table.Th>{t('field.name')}</Table.Th>
          <Table.Th>{t('field.status')}</Table.Th>
          <Table.Th>{t('field.comments')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {entity.segments.map((s, i) => (
          <Table.Tr key={s.id ?? i}>
            <Table.Td>{formatDate(s.timeRange.start, timeZone)}</Table.Td>
            <Table.Td>{formatDate(s.timeRange.end, timeZone)}</Table.Td>
            <Table.Td>{s.name}</Table.Td>
            <Table.Td>{t(`state.${s.state}`, { defaultValue: s.state })}</Table.Td>
            <Table.Td>{s.comments ?? ''}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
