import { Fragment, useMemo, useState, type ReactNode } from 'react';
import {
  flexRender,
  getCoreRowModel,
  useReactTable,
  type ColumnDef,
  type ExpandedState,
  type Header,
  type RowSelectionState,
  type Updater,
} from '@tanstack/react-table';
import {
  ActionIcon,
  Button,
  Checkbox,
  Group,
  Pagination,
  Select,
  Table,
  Text,
  LoadingOverlay,
  ScrollArea,
  UnstyledButton,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PAGINATION_OPTIONS } from '@railwatt/contracts';

/** Server-side paging as the table shows it: `page` is 1-based here; the caller sends it zero-based. */
export interface DataTablePagination {
  page: number;
  size: number;
  totalPages: number;
  totalElements?: number;
  /** Called with the next page and size. A size change always comes with page 1 (product.md §4). */
  onChange: (next: { page: number; size: number }) => void;
}

export interface DataTableSelection {
  selected: readonly string[];
  onChange: (ids: string[]) => void;
}

/**
 * Server-side sorting as the table shows it (the state lives in the URL, with the caller). The
 * columns that sort say so with `enableSorting: true`; their id is the sort key.
 */
export interface DataTableSort {
  sortBy: string;
  descending: boolean;
  /** Called with the column's id when its header is activated (the caller flips or sets the order). */
  onSort: (column: string) => void;
}

export interface DataTableProps<T> {
  data: readonly T[];
  columns: ColumnDef<T>[];
  getRowId: (row: T) => string;
  /** Text shown when there are no rows. */
  emptyMessage: string;
  loading?: boolean;
  pagination?: DataTablePagination;
  selection?: DataTableSelection;
  sort?: DataTableSort;
  /** When given, every row gets an expand toggle and shows this below itself when expanded. */
  renderExpanded?: (row: T) => ReactNode;
  'data-testid'?: string;
  rowTestId?: string;
  /** Extra buttons placed in the toolbar next to the selection and expansion buttons. */
  toolbar?: ReactNode;
}

/**
 * The one table of the app: TanStack Table for state, Mantine for looks. Paging is server-side;
 * the selection is held by the caller (so it survives page changes); expansion is local.
 */
export function DataTable<T>({
  data,
  columns,
  getRowId,
  emptyMessage,
  loading = false,
  pagination,
  selection,
  sort,
  renderExpanded,
  'data-testid': testId,
  rowTestId,
  toolbar,
}: DataTableProps<T>) {
  const { t } = useTranslation();
  const [expanded, setExpanded] = useState<ExpandedState>({});

  const rowSelection = useMemo<RowSelectionState>(
    () => Object.fromEntries((selection?.selected ?? []).map((id) => [id, true])),
    [selection?.selected],
  );

  const allColumns = useMemo<ColumnDef<T>[]>(() => {
    const leading: ColumnDef<T>[] = [];
    if (selection) {
      leading.push({
        id: '__select',
        header: () => null,
        cell: ({ row }) => (
          <Checkbox
            aria-label={t('datatable.select_row')}
            checked={row.getIsSelected()}
            onChange={row.getToggleSelectedHandler()}
          />
        ),
      });
    }
    if (renderExpanded) {
      leading.push({
        id: '__expand',
        header: () => null,
        cell: ({ row }) => (
          <ActionIcon
            variant="subtle"
            size="sm"
            aria-label={row.getIsExpanded() ? t('datatable.collapse_row') : t('datatable.expand_row')}
            aria-expanded={row.getIsExpanded()}
            onClick={row.getToggleExpandedHandler()}
          >
            {row.getIsExpanded() ? '▾' : '▸'}
          </ActionIcon>
        ),
      });
    }
    return [...leading, ...columns];
  }, [columns, selection, renderExpanded, t]);

  const onRowSelectionChange = (updater: Updater<RowSelectionState>) => {
    if (!selection) return;
    const next = typeof updater === 'function' ? updater(rowSelection) : updater;
    selection.onChange(Object.keys(next).filter((id) => next[id]));
  };

  const table = useReactTable<T>({
    data: data as T[],
    columns: allColumns,
    getRowId: (row) => getRowId(row),
    getCoreRowModel: getCoreRowModel(),
    manualPagination: true,
    enableRowSelection: Boolean(selection),
    getRowCanExpand: () => Boolean(renderExpanded),
    state: { rowSelection, expanded },
    onRowSelectionChange,
    onExpandedChange: setExpanded,
  });

  const pageIds = data.map(getRowId);
  const selectAll = () => {
    if (!selection) return;
    // Selecting adds what is absent; what was selected on other pages stays (product.md §4).
    selection.onChange([...new Set([...selection.selected, ...pageIds])]);
  };
  const clear = () => selection?.onChange([]);
  const expandAll = () => setExpanded(Object.fromEntries(pageIds.map((id) => [id, true])));
  const collapseAll = () => setExpanded({});

  const columnCount = allColumns.length;
  const hasToolbar = Boolean(selection || renderExpanded || toolbar);

  return (
    <div>
      {hasToolbar && (
        <Group justify="space-between" mb="xs" wrap="wrap">
          <Group gap="xs">
            {selection && (
              <>
                <Button size="xs" variant="outline" onClick={selectAll} disabled={data.length === 0}>
                  {t('datatable.select_all')}
                </Button>
                <Button size="xs" variant="outline" onClick={clear} disabled={selection.selected.length === 0}>
                  {t('datatable.clear_selection')}
                </Button>
              </>
            )}
            {renderExpanded && (
              <>
                <Button size="xs" variant="subtle" onClick={expandAll} disabled={data.length === 0}>
                  {t('datatable.expand_all')}
                </Button>
                <Button size="xs" variant="subtle" onClick={collapseAll}>
                  {t('datatable.collapse_all')}
                </Button>
              </>
            )}
            {selection && (
              <Text size="sm" c="dimmed" data-testid="selected-count">
                {t('datatable.selected_count', { count: selection.selected.length })}
              </Text>
            )}
          </Group>
          {toolbar && <Group gap="xs">{toolbar}</Group>}
        </Group>
      )}
      <ScrollArea type="auto" pos="relative">
        <LoadingOverlay visible={loading} transitionProps={{ enterDelay: 500 }} />
        <Table striped highlightOnHover withTableBorder data-testid={testId}>
          <Table.Thead>
            {table.getHeaderGroups().map((group) => (
              <Table.Tr key={group.id}>
                {group.headers.map((header) => (
                  <HeaderCell key={header.id} header={header} sort={sort} />
                ))}
              </Table.Tr>
            ))}
          </Table.Thead>
          <Table.Tbody>
            {data.length === 0 && !loading ? (
              <Table.Tr>
                <Table.Td colSpan={columnCount}>
                  <Text c="dimmed" ta="center" py="md" data-testid="data-table-empty">
                    {emptyMessage}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ) : (
              table.getRowModel().rows.map((row) => (
                <Fragment key={row.id}>
                  <Table.Tr data-testid={rowTestId} data-row-id={row.id} aria-selected={row.getIsSelected()}>
                    {row.getVisibleCells().map((cell) => (
                      <Table.Td key={cell.id}>{flexRender(cell.column.columnDef.cell, cell.getContext())}</Table.Td>
                    ))}
                  </Table.Tr>
                  {renderExpanded && row.getIsExpanded() && (
                    <Table.Tr data-testid={rowTestId ? `${rowTestId}-expanded` : undefined}>
                      <Table.Td colSpan={columnCount}>{renderExpanded(row.original)}</Table.Td>
                    </Table.Tr>
                  )}
                </Fragment>
              ))
            )}
          </Table.Tbody>
        </Table>
      </ScrollArea>
      {pagination && <DataTablePager pagination={pagination} />}
    </div>
  );
}

/**
 * A column header. A sortable one (the caller sorts and the column has `enableSorting: true`)
 * carries aria-sort (ascending, descending or none: WCAG 1.3.1), and its label is a button that
 * sorts by the column; the arrow beside it is for the eye only. Sorting is the server's, so the
 * table reads the order from `sort`, not from TanStack's sorting state (which needs accessors).
 */
function HeaderCell<T>({ header, sort }: { header: Header<T, unknown>; sort?: DataTableSort }) {
  if (header.isPlaceholder) return <Table.Th />;
  const label = flexRender(header.column.columnDef.header, header.getContext());
  if (!sort || header.column.columnDef.enableSorting !== true) return <Table.Th>{label}</Table.Th>;
  const order = sort.sortBy !== header.column.id ? 'none' : sort.descending ? 'descending' : 'ascending';
  return (
    <Table.Th aria-sort={order}>
      <UnstyledButton onClick={() => sort.onSort(header.column.id)} fw={600} fz="sm" data-testid="sort-header">
        {label}
        <span aria-hidden="true">{order === 'ascending' ? ' ▲' : order === 'descending' ? ' ▼' : ''}</span>
      </UnstyledButton>
    </Table.Th>
  );
}

/**
 * The page sizes offered: the pagination options of calls.md §9 and, when a screen's default is none
 * of them (the process log's 20), that size too, so the current size is shown and can be chosen again.
 */
export function pageSizes(size: number): number[] {
  const options: readonly number[] = PAGINATION_OPTIONS;
  return options.includes(size) ? [...options] : [...options, size].sort((a, b) => a - b);
}

function DataTablePager({ pagination }: { pagination: DataTablePagination }) {
  const { t } = useTranslation();
  const { page, size, totalPages, totalElements, onChange } = pagination;
  return (
    <Group justify="space-between" mt="sm">
      <Group gap="xs">
        <Text size="sm">{t('datatable.page_size')}</Text>
        <Select
          aria-label={t('datatable.page_size')}
          data-testid="page-size"
          w={90}
          size="xs"
          allowDeselect={false}
          data={pageSizes(size).map((n) => String(n))}
          value={String(size)}
          onChange={(value) => {
            // Changing the page size resets to page 1 (product.md §4).
            if (value) onChange({ page: 1, size: Number(value) });
          }}
        />
        {totalElements !== undefined && (
          <Text size="sm" c="dimmed">
            {t('datatable.total', { count: totalElements })}
          </Text>
        )}
      </Group>
      <Pagination
        size="sm"
        total={Math.max(totalPages, 1)}
        value={page}
        onChange={(next) => onChange({ page: next, size })}
        getControlProps={(control) =>
          control === 'next'
            ? { 'aria-label': t('datatable.next_page') }
            : control === 'previous'
              ? { 'aria-label': t('datatable.previous_page') }
              : {}
        }
      />
    </Group>
  );
}
