import { Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { ApiErrorText } from '../../../components/ui/api-error';
import { formatDateHour } from '../../../lib/format';
import { recordsQuery, type RecordsQuery } from '../api/settlement-queries';
import { useSettlementT } from '../hooks/use-settlement-t';
import { useFormat } from '../../../lib/use-format';
import { sumOf } from './figures';

/**
 * The CEBD records behind one hour of the hourly trace (GET /timeseries/settlement/records): per
 * record the consumption point, the end of its period, consumed and regenerated energy, the
 * allocation it went to, the train and the file it came in (docs/settlement.md "Tracing a figure to
 * its source"). Their net sum is the hour's energy.
 */
export function HourRecords({ query, timeZone }: { query: RecordsQuery; timeZone: string }) {
  const { t } = useSettlementT();
  const f = useFormat();
  const records = useQuery(recordsQuery(query));
  const data = records.data ?? [];
  if (records.error) return <ApiErrorText error={records.error} />;
  if (records.data && data.length === 0)
    return (
      <Text size="sm" c="dimmed">
        {t('records.empty')}
      </Text>
    );
  if (data.length === 0) return null;
  return (
    <Table withTableBorder fz="xs" data-testid="hour-records">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('records.consumptionPoint')}</Table.Th>
          <Table.Th>{t('records.periodEnd')}</Table.Th>
          <Table.Th ta="right">{t('records.consumed')}</Table.Th>
          <Table.Th ta="right">{t('records.regenerated')}</Table.Th>
          <Table.Th>{t('records.category')}</Table.Th>
          <Table.Th>{t('records.train')}</Table.Th>
          <Table.Th>{t('records.file')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {data.map((r) => (
          <Table.Tr key={`${r.consumptionPoint.uuid}:${r.periodEnd}:${r.category}`} data-testid="record-row">
            <Table.Td>{r.consumptionPoint.name ?? r.consumptionPoint.uuid}</Table.Td>
            <Table.Td>{formatDateHour(r.periodEnd, timeZone)}</Table.Td>
            <Table.Td ta="right">{f.number(r.activeConsumed)}</Table.Td>
            <Table.Td ta="right">{f.number(r.activeRegenerated)}</Table.Td>
            <Table.Td>{t(`records.categories.${r.category}`, { defaultValue: r.category })}</Table.Td>
            <Table.Td>{r.trainNumber ?? ''}</Table.Td>
            <Table.Td>{r.fileName ?? ''}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
      <Table.Tfoot>
        <Table.Tr>
          <Table.Th colSpan={2}>{t('records.net')}</Table.Th>
          <Table.Th ta="right" colSpan={2} data-testid="records-net">
            {f.number(sumOf(data, (r) => r.activeConsumed - r.activeRegenerated))}
          </Table.Th>
          <Table.Th colSpan={3} />
        </Table.Tr>
      </Table.Tfoot>
    </Table>
  );
}
