import { Button, Stack, Table, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import type { StatusChangeItem } from '@railwatt/contracts';
import { useStatusSummaryStore } from '../hooks/status-summary-store';
import { useFleetContext } from '../hooks/use-fleet-context';
import { useFleetT } from '../hooks/use-fleet-t';
import { formatDate } from './format';
import type { ScreenProps } from '../../../lib/routes';
import { FleetPageTitle } from './fleet-page-title';

/** /fleet/overview/errorsummary: what a partly failed status change did and did not save (product.md §4). */
export function FleetErrorSummaryPage(props: Partial<ScreenProps>) {
  const { t } = useFleetT();
  const { failed, succeeded, action, parentPage } = useStatusSummaryStore();

  return (
    <Stack gap="md">
      <FleetPageTitle screen={props} fallbackKey="errorsummary.title" />
      {action === null ? (
        <Text c="dimmed">{t('errorsummary.nothing')}</Text>
      ) : (
        <>
          <Text>{t('errorsummary.intro', { action: t(`action.${action}`) })}</Text>
          <Title order={2}>{t('errorsummary.failed', { count: failed.length })}</Title>
          <SummaryTable items={failed} withError testId="errorsummary-failed" />
          <Title order={2}>{t('errorsummary.succeeded', { count: succeeded.length })}</Title>
          {succeeded.length > 0 ? (
            <SummaryTable items={succeeded} testId="errorsummary-succeeded" />
          ) : (
            <Text c="dimmed">{t('errorsummary.none_succeeded')}</Text>
          )}
        </>
      )}
      <div>
        <Button component={Link} to={parentPage} variant="outline">
          {t('errorsummary.back')}
        </Button>
      </div>
    </Stack>
  );
}

function SummaryTable({
  items,
  withError,
  testId,
}: {
  items: StatusChangeItem[];
  withError?: boolean;
  testId: string;
}) {
  const { t } = useFleetT();
  const { timeZone } = useFleetContext();
  return (
    <Table withTableBorder data-testid={testId}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('errorsummary.name')}</Table.Th>
          <Table.Th>{t('entry.valid_from')}</Table.Th>
          <Table.Th>{t('entry.valid_to')}</Table.Th>
          <Table.Th>{t('entry.status')}</Table.Th>
          {withError && <Table.Th>{t('errorsummary.error')}</Table.Th>}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {items.map((item) => (
          <Table.Tr key={item.uuid}>
            <Table.Td>{item.name}</Table.Td>
            <Table.Td>{formatDate(item.validFrom, timeZone)}</Table.Td>
            <Table.Td>{formatDate(item.validTo, timeZone)}</Table.Td>
            <Table.Td>{t(`state.${item.status}`, { defaultValue: item.status })}</Table.Td>
            {withError && <Table.Td c="red">{item.error}</Table.Td>}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
