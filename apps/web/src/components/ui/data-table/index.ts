export { DataTable } from './data-table';
export type { DataTablePagination, DataTableProps, DataTableSelection, DataTableSort } from './data-table';
