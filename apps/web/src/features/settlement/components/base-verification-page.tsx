import { lazy, Suspense, useMemo, useState } from 'react';
import { Anchor, Group, Select, SimpleGrid, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { Link } from 'react-router';
import { z } from 'zod';
import { policyAdmits, POLICIES, type PriceAreaBalance, type SettlementBaseVerificationRow } from '@railwatt/contracts';
import { ApiErrorText } from '../../../components/ui/api-error';
import { DataTable } from '../../../components/ui/data-table';
import { PageTitle } from '../../../components/ui/page-title';
import { withUnit } from '../../../lib/format';
import type { ScreenProps } from '../../../lib/routes';
import { processPath } from '../../../lib/process-path';
import { useMarketStore } from '../../../lib/stores/market-store';
import { useFormat } from '../../../lib/use-format';
import { useUrlSearch } from '../../../lib/use-url-search';
import { balanceQuery, baseVerificationQuery, eusaOptionsQuery } from '../api/settlement-queries';
import { monthRange, monthSearchShape, useSettlementMonth, useSettlementZone } from '../hooks/settlement-month';
import { useSettlementT } from '../hooks/use-settlement-t';
import { BalanceCard } from './balance-card';
import type { BalanceChartRow } from './balance-chart';
import { HourlyModal } from './hourly-modal';
import { SettlementMonthPicker } from './settlement-month-picker';

/**
 * The chart loads with its own chunk (recharts): the other settlement screens, in the same chunk as
 * this one, do not need it.
 */
const BalanceChart = lazy(() => import('./balance-chart').then((m) => ({ default: m.BalanceChart })));

/** The screen's state in the URL (STYLE.md §5): the month and the energy use settlement area. */
const searchSchema = z.object({ ...monthSearchShape, eusa: z.uuid().optional().catch(undefined) });

const rowId = (row: Pick<SettlementBaseVerificationRow, 'organisation' | 'priceArea'>) =>
  `${row.organisation.uuid}:${row.priceArea.uuid}`;
const nameOf = (ref: { uuid: string; name: string | null }) => ref.name ?? ref.uuid;

/**
 * The chart's bars: the price areas' balances; without them (a consumer sees no balance: its
 * organisations are not the whole area) the rows summed per price area.
 */
function chartRows(balances: readonly PriceAreaBalance[], rows: readonly SettlementBaseVerificationRow[]) {
  if (balances.length > 0)
    return balances.map<BalanceChartRow>((b) => ({
      label: nameOf(b.priceArea),
      supply: b.supplyEnergy,
      metered: b.meteredEnergy,
      estimated: b.estimatedEnergy,
      other: b.otherEnergy,
      losses: b.lossesEnergy,
    }));
  const byArea = new Map<string, BalanceChartRow>();
  for (const row of rows) {
    const bar = byArea.get(row.priceArea.uuid) ?? {
      label: nameOf(row.priceArea),
      supply: 0,
      metered: 0,
      estimated: 0,
      other: 0,
      losses: 0,
    };
    bar.supply += row.supplyEnergy;
    bar.metered += row.meteredEnergy;
    bar.estimated += row.estimatedEnergy;
    bar.other += row.otherEnergy;
    bar.losses += row.lossesEnergy;
    byArea.set(row.priceArea.uuid, bar);
  }
  return [...byArea.values()];
}

/**
 * /settlementandverification/[tpa-]settlementbaseverification (product.md §2): the month's settlement
 * base in the area's zone, optionally for one energy use settlement area. Per price area the
 * balance (supply against metered + estimated + other + losses) and whether it closes, a chart of
 * the same, and per organisation and price area the figures; a metered figure opens the hourly
 * values it is the sum of.
 */
export function BaseVerificationPage(props: ScreenProps) {
  const { t } = useSettlementT();
  const f = useFormat();
  const roles = useMarketStore((s) => s.rolesInArea);
  const area = useMarketStore((s) => s.area?.kind ?? null);
  const mayRun = policyAdmits(POLICIES.processingRun, roles, area);
  const timeZone = useSettlementZone();
  const { search, update } = useUrlSearch(searchSchema);
  const month = useSettlementMonth(search, timeZone);
  const range = useMemo(() => monthRange(month, timeZone), [month, timeZone]);
  const query = { startYear: month.year, startMonth: month.month, ...(search.eusa ? { eusa: search.eusa } : {}) };
  const rows = useQuery(baseVerificationQuery(query));
  const balances = useQuery(balanceQuery(query));
  const eusas = useQuery(eusaOptionsQuery(range));
  const [traced, setTraced] = useState<SettlementBaseVerificationRow | null>(null);

  const data = useMemo(() => rows.data ?? [], [rows.data]);
  const balanceList = useMemo(() => balances.data ?? [], [balances.data]);
  const chart = useMemo(() => chartRows(balanceList, data), [balanceList, data]);
  const eusaOptions = useMemo(
    () =>
      (eusas.data ?? []).map((e) => ({ value: e.uuid, label: e.name })).sort((a, b) => a.label.localeCompare(b.label)),
    [eusas.data],
  );

  const columns = useMemo<ColumnDef<SettlementBaseVerificationRow>[]>(() => {
    const kwh = (label: string) => withUnit(t(label), 'kWh');
    const figure = (
      id: string,
      header: string,
      value: (row: SettlementBaseVerificationRow) => number,
      show: (value: number) => string = f.number,
    ): ColumnDef<SettlementBaseVerificationRow> => ({
      id,
      header: () => <Text ta="right">{header}</Text>,
      cell: ({ row }) => (
        <Text size="sm" ta="right" data-testid={`verification-${id}`}>
          {show(value(row.original))}
        </Text>
      ),
    });
    return [
      {
        id: 'organisation',
        header: t('verification.organisation'),
        cell: ({ row }) => nameOf(row.original.organisation),
      },
      { id: 'priceArea', header: t('verification.priceArea'), cell: ({ row }) => nameOf(row.original.priceArea) },
      figure('supply', kwh('verification.supplyEnergy'), (r) => r.supplyEnergy),
      {
        id: 'metered',
        header: () => <Text ta="right">{kwh('verification.meteredEnergy')}</Text>,
        cell: ({ row }) => (
          <Group justify="flex-end">
            <UnstyledButton
              onClick={() => setTraced(row.original)}
              data-testid="trace-metered"
              aria-label={t('verification.traceMetered', {
                value: f.energy(row.original.meteredEnergy),
                organisation: nameOf(row.original.organisation),
              })}
              c="blue"
              fz="sm"
              td="underline"
            >
              {f.number(row.original.meteredEnergy)}
            </UnstyledButton>
          </Group>
        ),
      },
      figure('estimated', kwh('verification.estimatedEnergy'), (r) => r.estimatedEnergy),
      figure('other', kwh('verification.otherEnergy'), (r) => r.otherEnergy),
      figure('onAccount', kwh('verification.onAccountEnergy'), (r) => r.onAccountEnergy),
      figure('losses', kwh('verification.lossesEnergy'), (r) => r.lossesEnergy),
      figure('supplyCost', withUnit(t('verification.supplyCost'), f.currency), (r) => r.supplyCost, f.money),
    ];
  }, [t, f]);

  return (
    <Stack gap="sm">
      <PageTitle {...props} />
      <Group align="flex-end" gap="sm">
        <SettlementMonthPicker value={month} onChange={(next) => update({ year: next.year, month: next.month })} />
        <Select
          label={t('verification.eusa')}
          placeholder={t('verification.eusaAll')}
          data={eusaOptions}
          value={search.eusa ?? null}
          onChange={(value) => update({ eusa: value })}
          clearable
          searchable
          nothingFoundMessage={t('noOptions')}
          w={280}
          data-testid="settlement-eusa"
        />
        <Text size="xs" c="dimmed">
          {t('zone', { zone: timeZone })}
        </Text>
      </Group>

      <Title order={2}>{t('verification.balanceTitle')}</Title>
      <ApiErrorText error={balances.error} />
      {balances.data && balanceList.length === 0 && (
        <Text c="dimmed" data-testid="balance-empty">
          {t('verification.noBalance')}
          {mayRun && (
            <>
              {' '}
              <Anchor component={Link} to={processPath('price-and-supply', 'run')} data-testid="balance-empty-run">
                {t('verification.runPriceAndSupply')}
              </Anchor>
            </>
          )}
        </Text>
      )}
      <SimpleGrid cols={{ base: 1, md: 2, xl: 3 }} spacing="sm">
        {balanceList.map((balance) => (
          <BalanceCard key={balance.priceArea.uuid} balance={balance} />
        ))}
      </SimpleGrid>
      {chart.length > 0 && (
        <Suspense fallback={null}>
          <BalanceChart data={chart} />
        </Suspense>
      )}

      <Title order={2}>{t('verification.tableTitle')}</Title>
      <ApiErrorText error={rows.error} />
      <DataTable
        data={data}
        columns={columns}
        getRowId={rowId}
        emptyMessage={t('verification.empty')}
        loading={rows.isFetching && (rows.isPlaceholderData || !rows.data)}
        data-testid="verification-table"
        rowTestId="verification-row"
      />
      <HourlyModal row={traced} month={month} timeZone={timeZone} onClose={() => setTraced(null)} />
    </Stack>
  );
}
