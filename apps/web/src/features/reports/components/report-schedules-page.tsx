import { Alert, Anchor, Button, Group, Loader, Stack, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { isSchedulable, REPORT_NAMES, type ReportName, type ReportSchedule } from '@railwatt/contracts';
import { Link, useParams } from 'react-router';
import { PageTitle } from '../../../components/ui/page-title';
import { apiErrorMessages } from '../../../lib/errors';
import type { ScreenProps } from '../../../lib/routes';
import { useModalStore } from '../../../lib/stores/modal-store';
import { useMarketStore } from '../../../lib/stores/market-store';
import { useNamespaceT } from '../../../lib/use-namespace-t';
import { reportSchedulesQuery, useDeleteReportSchedule } from '../api/report-schedules';

/** An instant on the area's wall clock, in the user's language. */
export function useAreaTime() {
  const { i18n } = useNamespaceT('reportSchedule');
  const timeZone = useMarketStore((s) => s.timeZone) ?? 'UTC';
  return (instant: string | null) =>
    instant
      ? new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(
          new Date(instant),
        )
      : '';
}

/**
 * /reports/schedules/:report: the report's schedules (GET /processing/scheduledreports?reportName),
 * each with when it runs, where the file goes, its owner and its next and last run; a new one and an
 * edit open the schedule page (/reports/<report>/schedule), a delete asks first.
 */
export function ReportSchedulesPage(props: ScreenProps) {
  const { t, tRoot } = useNamespaceT('reportSchedule');
  const report = useParams().report as ReportName;
  const known = (REPORT_NAMES as readonly string[]).includes(report) && isSchedulable(report);
  const schedules = useQuery({ ...reportSchedulesQuery(report), enabled: known });
  const remove = useDeleteReportSchedule(report);
  const openModal = useModalStore((s) => s.open);
  const at = useAreaTime();

  const when = (s: ReportSchedule) =>
    s.frequency === 'weekly'
      ? t('when.weekly', { day: t(`weekday.${s.dayOfWeek}`), time: s.time })
      : s.frequency === 'monthly'
        ? t('when.monthly', { day: s.dayOfMonth, time: s.time })
        : t('when.daily', { time: s.time });
  const where = (s: ReportSchedule) => {
    const d = s.destination;
    if (d.destinationType === 'my email') return t('destinationType.my email');
    if (d.destinationType === 'webservice') return d.webserviceUri;
    return `${d.destinationType.toUpperCase()} ${d.username}@${d.host}${d.remoteDirectory}`;
  };
  const askDelete = (s: ReportSchedule) =>
    openModal({
      type: 'userConfirmation',
      message: t('list.deleteQuestion', { name: s.name }),
      yesAction: () =>
        remove.mutate(s.id, {
          onSuccess: () => notifications.show({ color: 'green', message: t('list.deleted', { name: s.name }) }),
          onError: (error) => openModal({ type: 'error', message: apiErrorMessages(error, tRoot).join('\n') }),
        }),
    });

  return (
    <Stack gap="md">
      <PageTitle {...props} />
      {known && <Text>{t('list.of', { report: tRoot(`reports.${report}`) })}</Text>}
      {!known && <Alert color="yellow">{t('list.unknown')}</Alert>}
      {known && (
        <Group>
          <Button component={Link} to={`/reports/${report}/schedule`}>
            {t('list.new')}
          </Button>
          <Anchor component={Link} to={`/reports/${report}`}>
            {t('list.order')}
          </Anchor>
        </Group>
      )}
      {schedules.isPending && known && <Loader size="sm" role="status" aria-label={t('loading')} />}
      {schedules.isError && <Alert color="red">{apiErrorMessages(schedules.error, tRoot).join(' ')}</Alert>}
      {schedules.data && schedules.data.length === 0 && <Text>{t('list.none')}</Text>}
      {schedules.data && schedules.data.length > 0 && (
        <Table striped data-testid="report-schedules">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('field.name')}</Table.Th>
              <Table.Th>{t('list.when')}</Table.Th>
              <Table.Th>{t('field.format')}</Table.Th>
              <Table.Th>{t('list.where')}</Table.Th>
              <Table.Th>{t('list.owner')}</Table.Th>
              <Table.Th>{t('list.nextRun')}</Table.Th>
              <Table.Th>{t('list.lastRun')}</Table.Th>
              <Table.Th>{t('list.actions')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {schedules.data.map((s) => (
              <Table.Tr key={s.id}>
                <Table.Td>{s.name}</Table.Td>
                <Table.Td>{when(s)}</Table.Td>
                <Table.Td>{s.format.toUpperCase()}</Table.Td>
                <Table.Td>{where(s)}</Table.Td>
                <Table.Td>{s.owner}</Table.Td>
                <Table.Td>{at(s.nextRunAt)}</Table.Td>
                <Table.Td>{at(s.lastRunAt)}</Table.Td>
                <Table.Td>
                  <Group gap="xs" wrap="nowrap">
                    <Button
                      size="xs"
                      variant="outline"
                      component={Link}
                      to={`/reports/${report}/schedule?id=${s.id}`}
                      aria-label={t('list.editNamed', { name: s.name })}
                    >
                      {t('list.edit')}
                    </Button>
                    <Button
                      size="xs"
                      color="red"
                      variant="outline"
                      onClick={() => askDelete(s)}
                      aria-label={t('list.deleteNamed', { name: s.name })}
                    >
                      {t('list.delete')}
                    </Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
