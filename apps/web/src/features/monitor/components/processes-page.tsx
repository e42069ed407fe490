import { Anchor, Badge, Group, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { policyAdmits, POLICIES } from '@railwatt/contracts';
import { ApiErrorText } from '../../../components/ui/api-error';
import type { ScreenProps } from '../../../lib/routes';
import { useMarketStore } from '../../../lib/stores/market-store';
import { processesQuery, runsUnderWayQuery } from '../api/processing-queries';
import { useMonitorT } from '../hooks/use-monitor-t';
import { configurationLinks, PROCESS_PAGES } from '../process-pages';
import { RESULT_VIEW_PATH } from './events-table';
import { MonitorPageTitle, NotForRole, useMonitorZone } from './monitor-page-title';
import { ResultProgress, useProcessName } from './process-cells';
import { processPath } from './process-log-page';

const PAGES = new Map(PROCESS_PAGES.map((p) => [p.name, p]));

/**
 * /monitor/processes: the processes of the Monitor (GET /domain/processes) with links to each one's log,
 * for a user who runs processes its run page where it has one, and for a user who reads processing
 * configurations its configuration pages. Which process has which page is
 * process-pages.ts's (the routes' list): settlement has no Monitor page, combine no run page yet.
 * Each process's runs under way show beside it with their days and records (issue 18 item 4).
 */
export function ProcessesPage(props: Partial<ScreenProps>) {
  const { t } = useMonitorT();
  const processName = useProcessName();
  const roles = useMarketStore((s) => s.rolesInArea);
  const area = useMarketStore((s) => s.area?.kind ?? null);
  const mayRead = policyAdmits(POLICIES.processingRead, roles, area);
  const mayRun = policyAdmits(POLICIES.processingRun, roles, area);
  const mayConfigure = policyAdmits(POLICIES.processingConfigRead, roles, area);
  const timeZone = useMonitorZone();
  const processes = useQuery({ ...processesQuery(), enabled: mayRead });
  const underWay = useQuery({ ...runsUnderWayQuery(timeZone), enabled: mayRead });

  if (!mayRead) return <NotForRole screen={props} fallbackKey="processes.title" />;
  const shown = (processes.data ?? []).filter((p) => PAGES.has(p.name));
  return (
    <Stack gap="sm">
      <MonitorPageTitle screen={props} fallbackKey="processes.title" />
      <ApiErrorText error={processes.error ?? underWay.error} />
      <Table data-testid="processes-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('processes.name')}</Table.Th>
            <Table.Th>{t('processes.pages')}</Table.Th>
            <Table.Th>{t('processes.underWay')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {shown.map((p) => (
            <Table.Tr key={p.name} data-testid="process-row">
              <Table.Td>
                <Text size="sm">{processName(p.name)}</Text>
              </Table.Td>
              <Table.Td>
                <Group gap="md">
                  <Anchor component={Link} to={processPath(p.name, 'log')} size="sm">
                    {t('processes.log')}
                  </Anchor>
                  {PAGES.get(p.name)?.run && mayRun && (
                    <Anchor component={Link} to={processPath(p.name, 'run')} size="sm">
                      {t('processes.run')}
                    </Anchor>
                  )}
                  {mayConfigure &&
                    configurationLinks(PAGES.get(p.name), area).map((link) => (
                      <Anchor key={link.to} component={Link} to={link.to} size="sm">
                        {t(link.labelKey)}
                      </Anchor>
                    ))}
                  {!p.runnable && (
                    <Badge variant="light" color="gray">
                      {t('processes.logOnly')}
                    </Badge>
                  )}
                </Group>
              </Table.Td>
              <Table.Td>
                <Stack gap={4}>
                  {(underWay.data?.content ?? [])
                    .filter((run) => run.procedureName === p.name)
                    .map((run) => (
                      <Group key={run.id} gap="xs" wrap="nowrap" data-testid="process-run-under-way">
                        <Anchor component={Link} to={`${RESULT_VIEW_PATH}?id=${run.id}`} size="sm">
                          {t('run.followed', { id: run.id })}
                        </Anchor>
                        <ResultProgress result={run} />
                      </Group>
                    ))}
                </Stack>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
