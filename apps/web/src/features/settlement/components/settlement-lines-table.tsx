import { useMemo } from 'react';
import { Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import type { SettlementLine } from '@railwatt/contracts';
import { ApiErrorText } from '../../../components/ui/api-error';
import { DataTable } from '../../../components/ui/data-table';
import { settlementLinesQuery } from '../api/settlement-queries';
import { useSettlementT } from '../hooks/use-settlement-t';
import { formatFigure, sumOf } from './figures';

type Figure = { [K in keyof SettlementLine]: SettlementLine[K] extends number ? K : never }[keyof SettlementLine];

/** The figures of a line, in the table's order, with their header keys. */
const FIGURES: readonly { key: Exclude<Figure, 'procedureResultId'>; label: string }[] = [
  { key: 'meteredEnergy', label: 'lines.meteredEnergy' },
  { key: 'estimatedEnergy', label: 'lines.estimatedEnergy' },
  { key: 'otherEnergy', label: 'lines.otherEnergy' },
  { key: 'lossesEnergy', label: 'lines.lossesEnergy' },
  { key: 'onAccountEnergy', label: 'lines.onAccountEnergy' },
  { key: 'supplyEnergy', label: 'lines.supplyEnergy' },
  { key: 'supplyCost', label: 'lines.supplyCost' },
  { key: 'gridFeeCost', label: 'lines.gridFeeCost' },
  { key: 'energyFeeCost', label: 'lines.energyFeeCost' },
  { key: 'taxCost', label: 'lines.taxCost' },
  { key: 'vatCost', label: 'lines.vatCost' },
  { key: 'totalCost', label: 'lines.totalCost' },
  { key: 'onAccountCost', label: 'lines.onAccountCost' },
  { key: 'dueCost', label: 'lines.dueCost' },
];

const nameOf = (ref: { uuid: string; name: string | null }) => ref.name ?? ref.uuid;

/** A settlement result's lines per organisation and price area, and their totals below. */
export function SettlementLinesTable({ procedureResultId, status }: { procedureResultId: number; status: string }) {
  const { t } = useSettlementT();
  const lines = useQuery(settlementLinesQuery(procedureResultId, status));
  const data = useMemo(() => lines.data ?? [], [lines.data]);
  const columns = useMemo<ColumnDef<SettlementLine>[]>(
    () => [
      { id: 'organisation', header: t('lines.organisation'), cell: ({ row }) => nameOf(row.original.organisation) },
      { id: 'priceArea', header: t('lines.priceArea'), cell: ({ row }) => nameOf(row.original.priceArea) },
      ...FIGURES.map<ColumnDef<SettlementLine>>((f) => ({
        id: f.key,
        header: () => <Text ta="right">{t(f.label)}</Text>,
        cell: ({ row }) => (
          <Text size="sm" ta="right">
            {formatFigure(row.original[f.key])}
          </Text>
        ),
      })),
    ],
    [t],
  );
  return (
    <>
      <ApiErrorText error={lines.error} />
      <DataTable
        data={data}
        columns={columns}
        getRowId={(line) => `${line.organisation.uuid}:${line.priceArea.uuid}`}
        emptyMessage={t('lines.empty')}
        loading={lines.isFetching && !lines.data}
        data-testid="settlement-lines"
        rowTestId="settlement-line-row"
      />
      {data.length > 0 && (
        <Table withTableBorder data-testid="settlement-lines-totals">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('lines.totals')}</Table.Th>
              {FIGURES.map((f) => (
                <Table.Th key={f.key} ta="right">
                  {t(f.label)}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            <Table.Tr>
              <Table.Td>{t('lines.lineCount', { count: data.length })}</Table.Td>
              {FIGURES.map((f) => (
                <Table.Td key={f.key} ta="right" data-testid={`total-${f.key}`}>
                  {formatFigure(sumOf(data, (line) => line[f.key]))}
                </Table.Td>
              ))}
            </Table.Tr>
          </Table.Tbody>
        </Table>
      )}
    </>
  );
}
