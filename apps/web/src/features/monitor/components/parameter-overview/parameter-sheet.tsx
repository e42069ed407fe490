import { useMemo, useState } from 'react';
import { Button, Stack } from '@mantine/core';
import type { ColumnDef } from '@tanstack/react-table';
import type { ParameterOverview, TimeSeriesTypeName } from '@railwatt/contracts';
import { DataTable } from '../../../../components/ui/data-table';
import { useFormat } from '../../../../lib/use-format';
import { useParametersT } from '../../hooks/use-parameters-t';
import type { Month } from './parameter-months';
import { ParameterWriteBar } from './parameter-write-bar';

type Row = ParameterOverview['rows'][number];

/** The value the Edit action starts from: the row's last month with a value (null when it has none). */
export const lastValue = (row: Row): number | null => row.values.findLast((v) => v !== null) ?? null;

export interface ParameterSheetProps {
  area: string;
  timeZone: string;
  typeName: TimeSeriesTypeName;
  typeLabel: string;
  /** The shown rows (empty rows already hidden when asked) and the month headers, in order. */
  rows: readonly Row[];
  monthHeaders: readonly string[];
  /** The shown months: the write period's default. */
  from: Month;
  to: Month;
  loading: boolean;
  /** Whether the user writes parameters (the process runners): selection, value, Save, Remove, Edit. */
  mayWrite: boolean;
}

/**
 * The parameter overview's table of one type (the page keys it by type, so a new type starts with
 * nothing selected and no value): a row per entity, a column per month, and for writers the
 * selection, the write bar and an Edit action per row that takes the row's last value into the value
 * field and selects that row alone.
 */
export function ParameterSheet(props: ParameterSheetProps) {
  const { rows, monthHeaders, mayWrite } = props;
  const { t } = useParametersT();
  const f = useFormat();
  const [selected, setSelected] = useState<string[]>([]);
  const [value, setValue] = useState<number | string>('');

  // What is written is what is seen: a selected row hidden by "hide empty rows" is left out.
  const shownSelected = useMemo(() => {
    const ids = new Set(selected);
    return rows.filter((row) => ids.has(row.ref.uuid));
  }, [rows, selected]);

  const columns = useMemo<ColumnDef<Row>[]>(() => {
    const name: ColumnDef<Row> = { id: 'name', header: t('column.name'), cell: ({ row }) => row.original.ref.name };
    const months = monthHeaders.map<ColumnDef<Row>>((header, i) => ({
      id: `month-${i}`,
      header,
      // At most 4 decimals in the separators of the user's language (the CSV keeps 6, with a point).
      cell: ({ row }) => f.number(row.original.values[i]),
    }));
    if (!mayWrite) return [name, ...months];
    const edit: ColumnDef<Row> = {
      id: 'edit',
      header: () => null,
      cell: ({ row }) => (
        <Button
          size="xs"
          variant="subtle"
          aria-label={t('editRow', { name: row.original.ref.name })}
          data-testid="parameter-edit"
          onClick={() => {
            setValue(lastValue(row.original) ?? '');
            setSelected([row.original.ref.uuid]);
          }}
        >
          {t('edit')}
        </Button>
      ),
    };
    return [name, ...months, edit];
  }, [monthHeaders, mayWrite, t, f]);

  return (
    <Stack gap="sm">
      {mayWrite ? (
        <ParameterWriteBar
          key={`${props.from}:${props.to}`}
          area={props.area}
          timeZone={props.timeZone}
          typeName={props.typeName}
          typeLabel={props.typeLabel}
          refs={shownSelected.map((row) => ({ uuid: row.ref.uuid, type: row.ref.type }))}
          value={value}
          onValueChange={setValue}
          defaultFrom={props.from}
          defaultTo={props.to}
        />
      ) : null}
      <DataTable
        data={rows}
        columns={columns}
        getRowId={(row) => row.ref.uuid}
        emptyMessage={t('empty')}
        loading={props.loading}
        data-testid="parameter-table"
        rowTestId="parameter-row"
        {...(mayWrite
          ? { selection: { selected: shownSelected.map((row) => row.ref.uuid), onChange: setSelected } }
          : {})}
      />
    </Stack>
  );
}
