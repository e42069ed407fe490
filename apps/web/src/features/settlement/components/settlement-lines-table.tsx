import { Fragment, useMemo, useState, type CSSProperties } from 'react';
import { ActionIcon, Box, Button, Group, Loader, SimpleGrid, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { SettlementLine } from '@railwatt/contracts';
import { ApiErrorText } from '../../../components/ui/api-error';
import { withUnit } from '../../../lib/format';
import { useFormat } from '../../../lib/use-format';
import { settlementLinesQuery } from '../api/settlement-queries';
import { useSettlementT } from '../hooks/use-settlement-t';
import { sumOf } from './figures';
import { LineContractWarning } from './settlement-warnings';

type Figure = Exclude<
  { [K in keyof SettlementLine]: SettlementLine[K] extends number ? K : never }[keyof SettlementLine],
  'procedureResultId'
>;

/**
 * The columns of the table, the ones a reader looks for first (issue 18 item 3: organisation, price
 * area, energy, amount, due), then what the total is made of: supply cost, fees, tax and VAT, and the
 * on-account amount already invoiced (total - on account = due). Energy in kWh, amounts in the area's
 * currency: the header names the unit, the cells show the number.
 */
const COLUMNS: readonly { key: Figure; label: string; kind: 'energy' | 'money' }[] = [
  { key: 'supplyEnergy', label: 'lines.energy', kind: 'energy' },
  { key: 'totalCost', label: 'lines.totalCost', kind: 'money' },
  { key: 'dueCost', label: 'lines.dueCost', kind: 'money' },
  { key: 'supplyCost', label: 'lines.supplyCost', kind: 'money' },
  { key: 'gridFeeCost', label: 'lines.gridFeeCost', kind: 'money' },
  { key: 'energyFeeCost', label: 'lines.energyFeeCost', kind: 'money' },
  { key: 'taxCost', label: 'lines.taxCost', kind: 'money' },
  { key: 'vatCost', label: 'lines.vatCost', kind: 'money' },
  { key: 'onAccountCost', label: 'lines.onAccountCost', kind: 'money' },
];

/** The energy the supply is made of, shown when a line is opened (kWh). */
const PARTS: readonly { key: Figure; label: string }[] = [
  { key: 'meteredEnergy', label: 'lines.meteredEnergy' },
  { key: 'estimatedEnergy', label: 'lines.estimatedEnergy' },
  { key: 'otherEnergy', label: 'lines.otherEnergy' },
  { key: 'lossesEnergy', label: 'lines.lossesEnergy' },
  { key: 'onAccountEnergy', label: 'lines.onAccountEnergy' },
];

const ALL_FIGURES: readonly Figure[] = [
  ...COLUMNS.map((c) => c.key),
  ...PARTS.map((p) => p.key),
  'meteredCost',
  'estimatedCost',
  'otherCost',
  'lossesCost',
];

/** Below half of the last decimal shown (4 for energy, 2 for money) a figure reads as 0. */
const ZERO = 0.00005;

/** A line whose every figure is 0: an organisation that traded nothing in the price area this month. */
export const isZeroLine = (line: SettlementLine): boolean => ALL_FIGURES.every((key) => Math.abs(line[key]) < ZERO);

const nameOf = (ref: { uuid: string; name: string | null }) => ref.name ?? ref.uuid;
const lineId = (line: SettlementLine) => `${line.organisation.uuid}:${line.priceArea.uuid}`;

/** The first column stays in place when the table is narrower than its columns. */
const FROZEN: CSSProperties = {
  position: 'sticky',
  left: 0,
  zIndex: 1,
  background: 'var(--mantine-color-body)',
};

/**
 * A settlement result's lines per organisation and price area, with their totals in the footer. The
 * table fits a 1440 px screen: the columns that matter first, the organisation frozen, the energy
 * parts behind each line's toggle, and lines that are all zero folded away behind a button with their
 * count (their figures add nothing to the totals).
 */
export function SettlementLinesTable({ procedureResultId, status }: { procedureResultId: number; status: string }) {
  const { t } = useSettlementT();
  const f = useFormat();
  const lines = useQuery(settlementLinesQuery(procedureResultId, status));
  const data = useMemo(() => lines.data ?? [], [lines.data]);
  const zeroCount = useMemo(() => data.filter(isZeroLine).length, [data]);
  const [showZero, setShowZero] = useState(false);
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const shown = showZero ? data : data.filter((line) => !isZeroLine(line));
  const cell = (kind: 'energy' | 'money', value: number) => (kind === 'energy' ? f.number(value) : f.money(value));
  const header = (kind: 'energy' | 'money', label: string) =>
    withUnit(t(label), kind === 'energy' ? 'kWh' : f.currency);
  const toggle = (id: string) =>
    setOpen((before) => {
      const next = new Set(before);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const columnCount = COLUMNS.length + 2;

  return (
    <>
      <ApiErrorText error={lines.error} />
      {lines.isPending && <Loader size="sm" />}
      {lines.data && data.length === 0 && (
        <Text c="dimmed" data-testid="settlement-lines-empty">
          {t('lines.empty')}
        </Text>
      )}
      {zeroCount > 0 && (
        <Group gap="xs">
          <Button
            size="xs"
            variant="subtle"
            onClick={() => setShowZero((s) => !s)}
            aria-pressed={showZero}
            data-testid="toggle-zero-lines"
          >
            {showZero ? t('lines.hideZero', { count: zeroCount }) : t('lines.showZero', { count: zeroCount })}
          </Button>
        </Group>
      )}
      {data.length > 0 && (
        <Box style={{ overflowX: 'auto' }} data-testid="settlement-lines-scroll">
          <Table
            striped
            withTableBorder
            fz="sm"
            verticalSpacing={4}
            horizontalSpacing={6}
            data-testid="settlement-lines"
          >
            <Table.Thead>
              <Table.Tr>
                <Table.Th style={FROZEN}>{t('lines.organisation')}</Table.Th>
                <Table.Th>{t('lines.priceArea')}</Table.Th>
                {COLUMNS.map((c) => (
                  <Table.Th key={c.key} ta="right" data-column={c.key}>
                    {header(c.kind, c.label)}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {shown.map((line) => {
                const id = lineId(line);
                const expanded = open.has(id);
                return (
                  <Fragment key={id}>
                    <Table.Tr data-testid="settlement-line-row" data-row-id={id} data-zero={isZeroLine(line)}>
                      <Table.Td style={FROZEN}>
                        <Group gap={4} wrap="nowrap">
                          <ActionIcon
                            variant="subtle"
                            size="sm"
                            aria-expanded={expanded}
                            aria-label={t('lines.parts', { organisation: nameOf(line.organisation) })}
                            onClick={() => toggle(id)}
                          >
                            {expanded ? '▾' : '▸'}
                          </ActionIcon>
                          {nameOf(line.organisation)}
                        </Group>
                      </Table.Td>
                      <Table.Td>
                        <Group gap={4} wrap="nowrap">
                          {nameOf(line.priceArea)}
                          <LineContractWarning
                            result={{ id: procedureResultId, status }}
                            organisation={line.organisation.uuid}
                            priceArea={line.priceArea.uuid}
                          />
                        </Group>
                      </Table.Td>
                      {COLUMNS.map((c) => (
                        <Table.Td key={c.key} ta="right" style={{ whiteSpace: 'nowrap' }} data-column={c.key}>
                          {cell(c.kind, line[c.key])}
                        </Table.Td>
                      ))}
                    </Table.Tr>
                    {expanded && (
                      <Table.Tr data-testid="settlement-line-parts">
                        <Table.Td colSpan={columnCount}>
                          <SimpleGrid cols={{ base: 2, sm: 5 }} spacing="xs">
                            {PARTS.map((p) => (
                              <div key={p.key}>
                                <Text size="xs" c="dimmed">
                                  {withUnit(t(p.label), 'kWh')}
                                </Text>
                                <Text size="sm" data-testid={`part-${p.key}`}>
                                  {f.number(line[p.key])}
                                </Text>
                              </div>
                            ))}
                          </SimpleGrid>
                        </Table.Td>
                      </Table.Tr>
                    )}
                  </Fragment>
                );
              })}
            </Table.Tbody>
            <Table.Tfoot data-testid="settlement-lines-totals">
              <Table.Tr>
                <Table.Th style={FROZEN}>{t('lines.totals')}</Table.Th>
                <Table.Th>{t('lines.lineCount', { count: data.length })}</Table.Th>
                {COLUMNS.map((c) => (
                  <Table.Th key={c.key} ta="right" style={{ whiteSpace: 'nowrap' }} data-testid={`total-${c.key}`}>
                    {cell(
                      c.kind,
                      sumOf(data, (line) => line[c.key]),
                    )}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Tfoot>
          </Table>
        </Box>
      )}
    </>
  );
}
