import { Alert, Badge, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { PageTitle } from '../../../../components/ui/page-title';
import type { ScreenProps } from '../../../../lib/routes';
import { apiErrorMessages } from '../../../../lib/errors';
import { useMarketStore } from '../../../../lib/stores/market-store';
import { interfaceHistoryQuery } from '../../api/interfaces';
import { formatDateTime } from '../../../../lib/format';
import { useInterfacesT } from './use-interfaces-t';

/** /administration/interface/history?routeId=: every change of one route, newest first. */
export function InterfaceHistoryPage(props: ScreenProps) {
  const { t, tRoot } = useInterfacesT();
  const [params] = useSearchParams();
  const routeId = params.get('routeId') ?? '';
  const timeZone = useMarketStore((s) => s.timeZone) ?? 'UTC';
  const history = useQuery({ ...interfaceHistoryQuery(routeId), enabled: routeId !== '' });

  return (
    <Stack gap="sm">
      <PageTitle {...props} />
      {routeId === '' ? (
        <Text>{t('history.no_route')}</Text>
      ) : (
        <Text fw={500} data-testid="history-route-id">
          {routeId}
        </Text>
      )}
      {history.isError && (
        <Alert color="red">{apiErrorMessages(history.error, tRoot).join(' ') || t('history.load_failed')}</Alert>
      )}
      {history.data && history.data.length === 0 && <Text>{t('history.empty')}</Text>}
      {history.data && history.data.length > 0 && (
        <Table striped data-testid="interface-history">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('history.changed_at')}</Table.Th>
              <Table.Th>{t('history.changed_by')}</Table.Th>
              <Table.Th>{t('history.change')}</Table.Th>
              <Table.Th>{t('history.fields')}</Table.Th>
              <Table.Th>{t('field.changeComment')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {history.data.map((entry) => (
              <Table.Tr key={entry.id} data-testid="interface-history-row">
                <Table.Td>{formatDateTime(entry.changedAt, timeZone)}</Table.Td>
                <Table.Td>{entry.changedBy}</Table.Td>
                <Table.Td>
                  <Badge variant="light">{t(`history.kind.${entry.change}`)}</Badge>
                </Table.Td>
                <Table.Td>
                  {[
                    ...entry.changedFields.map((f) => t(`field.${f}`, { defaultValue: f })),
                    ...(entry.credentialsChanged ? [t('history.credentials_changed')] : []),
                  ].join(', ')}
                </Table.Td>
                <Table.Td>{entry.changeComment ?? ''}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
