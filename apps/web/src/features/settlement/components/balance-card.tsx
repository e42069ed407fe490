import { Alert, Paper, Stack, Table, Text, Title } from '@mantine/core';
import type { PriceAreaBalance } from '@railwatt/contracts';
import { useSettlementT } from '../hooks/use-settlement-t';
import { useFormat } from '../../../lib/use-format';
import { balanceCloses } from './figures';

/**
 * One price area's balance for the month: the supply measured at the substations against metered +
 * estimated + other + losses (the losses include those billed to no organisation), the difference
 * the server computed, and whether the balance closes. Hours with energy but no supply or no spot
 * price are warned about: the figures of those hours are not complete.
 */
export function BalanceCard({ balance }: { balance: PriceAreaBalance }) {
  const { t } = useSettlementT();
  const f = useFormat();
  const closes = balanceCloses(balance.difference);
  const parts = balance.meteredEnergy + balance.estimatedEnergy + balance.otherEnergy + balance.lossesEnergy;
  const line = (label: string, value: number, testId: string, strong = false) => (
    <Table.Tr>
      <Table.Td>{strong ? <Text fw={600}>{label}</Text> : label}</Table.Td>
      <Table.Td ta="right" data-testid={testId}>
        {strong ? <Text fw={600}>{f.number(value)}</Text> : f.number(value)}
      </Table.Td>
    </Table.Tr>
  );
  return (
    <Paper withBorder p="sm" data-testid="balance-card" data-price-area={balance.priceArea.uuid}>
      <Stack gap="xs">
        <Title order={3}>{balance.priceArea.name ?? balance.priceArea.uuid}</Title>
        <Table withRowBorders={false} verticalSpacing={2}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th />
              <Table.Th ta="right">{t('unit.kwh')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {line(t('balance.supply'), balance.supplyEnergy, 'balance-supply', true)}
            {line(t('balance.metered'), balance.meteredEnergy, 'balance-metered')}
            {line(t('balance.estimated'), balance.estimatedEnergy, 'balance-estimated')}
            {line(t('balance.other'), balance.otherEnergy, 'balance-other')}
            {line(t('balance.losses'), balance.lossesEnergy, 'balance-losses')}
            {line(t('balance.unbilledLosses'), balance.unbilledLossesEnergy, 'balance-unbilled-losses')}
            {line(t('balance.parts'), parts, 'balance-parts', true)}
            {line(t('balance.difference'), balance.difference, 'balance-difference', true)}
          </Table.Tbody>
        </Table>
        <Alert
          color={closes ? 'green' : 'red'}
          variant="light"
          data-testid="balance-status"
          data-closes={String(closes)}
        >
          {closes ? t('balance.closes') : t('balance.notCloses', { difference: f.energy(balance.difference) })}
        </Alert>
        {balance.hoursWithoutSupply > 0 && (
          <Text size="sm" c="orange.8" data-testid="balance-hours-without-supply">
            {t('balance.hoursWithoutSupply', { count: balance.hoursWithoutSupply })}
          </Text>
        )}
        {balance.hoursWithoutPrice > 0 && (
          <Text size="sm" c="orange.8" data-testid="balance-hours-without-price">
            {t('balance.hoursWithoutPrice', { count: balance.hoursWithoutPrice })}
          </Text>
        )}
        {balance.averagePrice !== null && (
          <Text size="sm" c="dimmed" data-testid="balance-average-price">
            {t('balance.averagePrice', { price: f.price(balance.averagePrice) })}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
