import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ColumnDef } from '@tanstack/react-table';
import { renderUi } from '../test-harness';
import { DataTable, pageSizes } from './data-table';

interface Row {
  id: string;
  name: string;
}
const rows: Row[] = [
  { id: 'a', name: 'Alpha' },
  { id: 'b', name: 'Beta' },
];
const columns: ColumnDef<Row>[] = [{ accessorKey: 'name', header: 'Name' }];

function Harness({ onPage }: { onPage: (next: { page: number; size: number }) => void }) {
  const [selected, setSelected] = useState<string[]>([]);
  const [paging, setPaging] = useState({ page: 3, size: 10 });
  return (
    <DataTable
      data={rows}
      columns={columns}
      getRowId={(r) => r.id}
      emptyMessage="Nothing"
      data-testid="table"
      rowTestId="row"
      selection={{ selected, onChange: setSelected }}
      renderExpanded={(r) => <span>details of {r.name}</span>}
      pagination={{
        ...paging,
        totalPages: 5,
        totalElements: 50,
        onChange: (next) => {
          onPage(next);
          setPaging(next);
        },
      }}
    />
  );
}

describe('data table', () => {
  it('selects all and clears, expands all and collapses all', async () => {
    const user = userEvent.setup();
    renderUi(<Harness onPage={() => {}} />);
    expect(screen.getAllByTestId('row')).toHaveLength(2);
    await user.click(screen.getByRole('button', { name: 'Select all' }));
    expect(screen.getByTestId('selected-count')).toHaveTextContent('2 selected');
    screen.getAllByRole('checkbox').forEach((box) => expect(box).toBeChecked());
    await user.click(screen.getByRole('button', { name: 'Clear' }));
    expect(screen.getByTestId('selected-count')).toHaveTextContent('0 selected');

    await user.click(screen.getByRole('button', { name: 'Expand all' }));
    expect(screen.getByText('details of Alpha')).toBeInTheDocument();
    expect(screen.getByText('details of Beta')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Collapse all' }));
    expect(screen.queryByText('details of Alpha')).not.toBeInTheDocument();
    await user.click(within(screen.getAllByTestId('row')[1]!).getByRole('button', { name: 'Expand row' }));
    expect(screen.getByText('details of Beta')).toBeInTheDocument();
  });

  it('offers page sizes 10, 50, 100 and goes back to page 1 when the size changes', async () => {
    const user = userEvent.setup();
    const onPage = vi.fn();
    renderUi(<Harness onPage={onPage} />);
    await user.click(screen.getByRole('textbox', { name: 'Rows per page' }));
    const options = screen.getAllByRole('option').map((o) => o.textContent);
    expect(options).toEqual(['10', '50', '100']);
    await user.click(screen.getByRole('option', { name: '50' }));
    expect(onPage).toHaveBeenLastCalledWith({ page: 1, size: 50 });
  });

  it('offers a screen’s own default size beside the options, in order', () => {
    expect(pageSizes(20)).toEqual([10, 20, 50, 100]);
    expect(pageSizes(50)).toEqual([10, 50, 100]);
  });

  it('counts the rows in the separators of the user’s language (issue 18 item 2)', () => {
    renderUi(
      <DataTable
        data={rows}
        columns={columns}
        getRowId={(r) => r.id}
        emptyMessage="Nothing"
        pagination={{ page: 1, size: 50, totalPages: 25, totalElements: 1234, onChange: () => {} }}
      />,
    );
    expect(screen.getByText('1,234 rows')).toBeInTheDocument();
  });

  it('shows the empty message without rows', () => {
    renderUi(<DataTable data={[]} columns={columns} getRowId={(r) => r.id} emptyMessage="Nothing here" />);
    expect(screen.getByTestId('data-table-empty')).toHaveTextContent('Nothing here');
  });

  it('marks the sorted column with aria-sort, the other sortable ones with none, and sorts from the header button', async () => {
    const user = userEvent.setup();
    const onSort = vi.fn();
    const sortable: ColumnDef<Row>[] = [
      { id: 'name', accessorKey: 'name', header: 'Name', enableSorting: true },
      { id: 'id', accessorKey: 'id', header: 'Key', enableSorting: true },
      { id: 'note', header: 'Note', cell: () => '' },
    ];
    renderUi(
      <DataTable
        data={rows}
        columns={sortable}
        getRowId={(r) => r.id}
        emptyMessage="Nothing"
        sort={{ sortBy: 'name', descending: true, onSort }}
      />,
    );
    const [name, key, note] = screen.getAllByRole('columnheader');
    expect(name).toHaveAttribute('aria-sort', 'descending');
    expect(key).toHaveAttribute('aria-sort', 'none');
    expect(note).not.toHaveAttribute('aria-sort');
    expect(within(note!).queryByRole('button')).toBeNull();
    // The arrow is for the eye: the button's name is the column's.
    expect(within(name!).getByRole('button')).toHaveAccessibleName('Name');

    await user.click(within(key!).getByRole('button', { name: 'Key' }));
    expect(onSort).toHaveBeenCalledWith('id');
    // Keyboard: the header button is reached with Tab and sorts with Enter.
    within(name!).getByRole('button').focus();
    await user.keyboard('{Enter}');
    expect(onSort).toHaveBeenLastCalledWith('name');
  });

  it('sorts nothing and shows plain headers when the caller does not sort', () => {
    renderUi(
      <DataTable
        data={rows}
        columns={[{ id: 'name', accessorKey: 'name', header: 'Name', enableSorting: true }]}
        getRowId={(r) => r.id}
        emptyMessage="Nothing"
      />,
    );
    expect(screen.getByRole('columnheader', { name: 'Name' })).not.toHaveAttribute('aria-sort');
    expect(screen.queryByRole('button', { name: 'Name' })).toBeNull();
  });
});
