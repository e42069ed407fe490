import { Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { masterdataUpdatesQuery } from '../api/fleet-queries';
import { useFleetContext } from '../hooks/use-fleet-context';
import { useFleetT } from '../hooks/use-fleet-t';
import { formatDateTime } from '../../../lib/format';
import type { ScreenProps } from '../../../lib/routes';
import { FleetPageTitle } from './fleet-page-title';
import { ApiErrorText } from '../../../components/ui/api-error';

const SHOWN = 50;

/** /fleet/masterdata-updates (master-data switch on): the latest traction unit changes first. */
export function MasterdataUpdatesPage(props: Partial<ScreenProps>) {
  const { t } = useFleetT();
  const { timeZone } = useFleetContext();
  const updates = useQuery(masterdataUpdatesQuery());
  const rows = (updates.data ?? []).slice(0, SHOWN);

  return (
    <Stack gap="md">
      <FleetPageTitle screen={props} fallbackKey="masterdata.title" />
      <ApiErrorText error={updates.isError ? updates.error : null} />
      <Table withTableBorder striped data-testid="masterdata-updates-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('masterdata.name')}</Table.Th>
            <Table.Th>{t('entry.evn')}</Table.Th>
            <Table.Th>{t('entry.status')}</Table.Th>
            <Table.Th>{t('history.last_modified')}</Table.Th>
            <Table.Th>{t('history.last_modified_by')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((unit) => (
            <Table.Tr key={unit.uuid}>
              <Table.Td>{unit.name}</Table.Td>
              <Table.Td>{typeof unit.evn === 'string' ? unit.evn : ''}</Table.Td>
              <Table.Td>{t(`state.${unit.state}`, { defaultValue: unit.state })}</Table.Td>
              <Table.Td>{formatDateTime(unit.lastModified, timeZone)}</Table.Td>
              <Table.Td>{unit.lastModifiedBy}</Table.Td>
            </Table.Tr>
          ))}
          {updates.isSuccess && rows.length === 0 && (
            <Table.Tr>
              <Table.Td colSpan={5}>
                <Text c="dimmed">{t('masterdata.empty')}</Text>
              </Table.Td>
            </Table.Tr>
          )}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
