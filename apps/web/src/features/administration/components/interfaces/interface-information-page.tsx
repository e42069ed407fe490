import { Alert, Badge, Code, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { PageTitle } from '../../../../components/ui/page-title';
import type { ScreenProps } from '../../../../lib/routes';
import { apiErrorMessages } from '../../../../lib/errors';
import { interfaceListQuery } from '../../api/interfaces';
import { useInterfacesT } from './use-interfaces-t';

/** How many routes the information page lists (every route a platform has, in practice). */
const INFORMATION_PAGE_SIZE = 1000;

/**
 * /administration/interface/config/information: a read-only explanation of the configured routes:
 * what a route is, and for each one where its files come from or go to, and the host key its
 * server must present.
 */
export function InterfaceInformationPage(props: ScreenProps) {
  const { t, tRoot } = useInterfacesT();
  const routes = useQuery(interfaceListQuery({ page: 1, size: INFORMATION_PAGE_SIZE }));
  return (
    <Stack gap="sm">
      <PageTitle {...props} />
      <Text>{t('information.intro')}</Text>
      <Text size="sm" c="dimmed">
        {t('information.rules')}
      </Text>
      {routes.isError && (
        <Alert color="red">{apiErrorMessages(routes.error, tRoot).join(' ') || t('overview.load_failed')}</Alert>
      )}
      {routes.data && routes.data.content.length === 0 && <Text>{t('information.none')}</Text>}
      {routes.data && routes.data.content.length > 0 && (
        <Table data-testid="interface-information">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('field.routeId')}</Table.Th>
              <Table.Th>{t('information.explanation')}</Table.Th>
              <Table.Th>{t('field.hostKeyFingerprint')}</Table.Th>
              <Table.Th>{t('field.enabled')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {routes.data.content.map((r) => (
              <Table.Tr key={r.routeId}>
                <Table.Td>{r.routeId}</Table.Td>
                <Table.Td>
                  {t(r.direction === 'IN' ? 'information.route_in' : 'information.route_out', {
                    type: t(`type.${r.interfaceType}`, { defaultValue: r.interfaceType }),
                    server: t(`serverType.${r.serverType}`),
                    host: `${r.hostname}:${r.port}`,
                    path: r.path,
                    username: r.username,
                  })}
                  {r.backupPath ? ` ${t('information.backup', { path: r.backupPath })}` : ''}
                  {r.description ? ` (${r.description})` : ''}
                </Table.Td>
                <Table.Td data-testid="interface-host-key">
                  {r.hostKeyFingerprint ? (
                    <Code>{r.hostKeyFingerprint}</Code>
                  ) : (
                    <Text size="sm" c="dimmed">
                      {t('hostKey.not_pinned')}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <Badge color={r.enabled ? 'green' : 'gray'} variant="light">
                    {t(r.enabled ? 'overview.enabled' : 'overview.disabled')}
                  </Badge>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
