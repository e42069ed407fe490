export { DataTable } from './data-table';
export type { DataTablePagination, DataTableProps, DataTableSelection } from './data-table';
