import { Fragment, useState } from 'react';
import { Loader, Modal, ScrollArea, Stack, Table, Text, UnstyledButton } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { SettlementBaseVerificationRow } from '@railwatt/contracts';
import { ApiErrorText } from '../../../components/ui/api-error';
import { formatDateHour, withUnit } from '../../../lib/format';
import { useFormat } from '../../../lib/use-format';
import { hourlyQuery, type SettlementMonth } from '../api/settlement-queries';
import { monthText } from '../hooks/settlement-month';
import { useSettlementT } from '../hooks/use-settlement-t';
import { sumOf } from './figures';
import { HourRecords } from './hour-records';

/** The sum of the hours equals the figure when they agree to the figure's last shown decimal. */
const SAME_FIGURE = 0.00005;

/**
 * The hourly values behind one row's metered energy (GET /timeseries/settlement/hourly): hour, grid
 * area, energy, price and cost, and the sum line, which equals the figure clicked. A sum that does
 * not is said so (the figure and its hours come from the same tables, so it would be a fault). An
 * hour opens the CEBD records behind it.
 */
export function HourlyModal({
  row,
  month,
  timeZone,
  onClose,
}: {
  row: SettlementBaseVerificationRow | null;
  month: SettlementMonth;
  timeZone: string;
  onClose: () => void;
}) {
  const { t } = useSettlementT();
  const f = useFormat();
  const hours = useQuery({
    ...hourlyQuery({
      ...month,
      organisation: row?.organisation.uuid ?? '',
      priceArea: row?.priceArea.uuid ?? '',
      category: 'metered',
    }),
    enabled: row !== null,
  });
  const data = hours.data ?? [];
  const sum = sumOf(data, (h) => h.energy);
  const figure = row?.meteredEnergy ?? 0;
  const [openHour, setOpenHour] = useState<string | null>(null);
  const hourKey = (h: { hourStart: string; gridArea: { uuid: string } }) => `${h.hourStart}:${h.gridArea.uuid}`;
  return (
    <Modal
      opened={row !== null}
      onClose={onClose}
      size="xl"
      title={
        row
          ? t('hourly.title', {
              organisation: row.organisation.name ?? row.organisation.uuid,
              priceArea: row.priceArea.name ?? row.priceArea.uuid,
              month: monthText(month),
            })
          : ''
      }
      closeButtonProps={{ 'aria-label': t('hourly.close') }}
    >
      <Stack gap="xs" data-testid="hourly-modal">
        <ApiErrorText error={hours.error} />
        {hours.isPending && row !== null && <Loader size="sm" />}
        {hours.data && data.length === 0 && <Text c="dimmed">{t('hourly.empty')}</Text>}
        {data.length > 0 && (
          <ScrollArea.Autosize mah="60vh" type="auto">
            <Table striped stickyHeader>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('hourly.hour')}</Table.Th>
                  <Table.Th>{t('hourly.gridArea')}</Table.Th>
                  <Table.Th ta="right">{withUnit(t('hourly.energy'), 'kWh')}</Table.Th>
                  <Table.Th ta="right">{withUnit(t('hourly.price'), f.priceUnit)}</Table.Th>
                  <Table.Th ta="right">{withUnit(t('hourly.cost'), f.currency)}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.map((h) => {
                  const key = hourKey(h);
                  const open = openHour === key;
                  return (
                    <Fragment key={key}>
                      <Table.Tr data-testid="hourly-row">
                        <Table.Td>
                          <UnstyledButton
                            onClick={() => setOpenHour(open ? null : key)}
                            aria-expanded={open}
                            data-testid="trace-hour"
                            c="blue"
                            fz="sm"
                            td="underline"
                          >
                            {formatDateHour(h.hourStart, timeZone)}
                          </UnstyledButton>
                        </Table.Td>
                        <Table.Td>{h.gridArea.name ?? h.gridArea.uuid}</Table.Td>
                        <Table.Td ta="right">{f.number(h.energy)}</Table.Td>
                        <Table.Td ta="right">{f.number(h.price)}</Table.Td>
                        <Table.Td ta="right">{f.money(h.cost)}</Table.Td>
                      </Table.Tr>
                      {open && row && (
                        <Table.Tr>
                          <Table.Td colSpan={5}>
                            <HourRecords
                              query={{
                                organisation: row.organisation.uuid,
                                gridArea: h.gridArea.uuid,
                                hourStart: h.hourStart,
                              }}
                              timeZone={timeZone}
                            />
                          </Table.Td>
                        </Table.Tr>
                      )}
                    </Fragment>
                  );
                })}
              </Table.Tbody>
              <Table.Tfoot>
                <Table.Tr>
                  <Table.Th colSpan={2}>{t('hourly.sum')}</Table.Th>
                  <Table.Th ta="right" data-testid="hourly-sum">
                    {f.number(sum)}
                  </Table.Th>
                  <Table.Th />
                  <Table.Th ta="right" data-testid="hourly-cost-sum">
                    {f.money(sumOf(data, (h) => h.cost ?? 0))}
                  </Table.Th>
                </Table.Tr>
              </Table.Tfoot>
            </Table>
          </ScrollArea.Autosize>
        )}
        {hours.data && Math.abs(sum - figure) >= SAME_FIGURE && (
          <Text c="red" size="sm" data-testid="hourly-mismatch">
            {t('hourly.mismatch', { value: f.energy(figure) })}
          </Text>
        )}
      </Stack>
    </Modal>
  );
}
