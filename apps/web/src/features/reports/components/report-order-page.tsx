import { Alert, Anchor, Button, Group, Loader, NumberInput, Select, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import {
  isSchedulable,
  LANGUAGES,
  REPORT_NAMES,
  type JobRun,
  type ReportFormat,
  type ReportLanguage,
  type ReportName,
  type ReportOrderAnswer,
} from '@railwatt/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { PageTitle } from '../../../components/ui/page-title';
import { JobProgress } from '../../../components/ui/upload-dialog/job-progress';
import { apiErrorMessages } from '../../../lib/errors';
import type { ScreenProps } from '../../../lib/routes';
import { useMarketStore } from '../../../lib/stores/market-store';
import { useFormat } from '../../../lib/use-format';
import { useNamespaceT } from '../../../lib/use-namespace-t';
import { downloadReportFile, reportListQuery, useOrderReport } from '../api/reports';

/** The month before today's, the one a settled report is usually ordered for. */
function lastMonth(now = new Date()): { year: number; month: number } {
  const month = now.getUTCMonth(); // 0-based: this month's index is last month's number
  return month === 0 ? { year: now.getUTCFullYear() - 1, month: 12 } : { year: now.getUTCFullYear(), month };
}

/**
 * /reports/<report>: the order page of one report (issue 20 item 6). The user picks the month, the
 * file format and the language, orders, follows the job (GET /jobs/{id}) and downloads the file; the
 * order is also an "Ordered report" entry of the data log. The columns and their units are shown so
 * the user knows what the file holds. A report the server does not offer this user (not built yet,
 * or not for this role) says so.
 */
export function ReportOrderPage(props: ScreenProps) {
  const { t, tRoot } = useNamespaceT('reportOrder');
  const { i18n } = useTranslation();
  const name = useLocation().pathname.split('/')[2] as ReportName;
  const timeZone = useMarketStore((s) => s.timeZone) ?? 'UTC';
  const reports = useQuery(reportListQuery(i18n.language as ReportLanguage));
  const report = reports.data?.find((r) => r.name === name);
  const initial = lastMonth();
  const [year, setYear] = useState<number>(initial.year);
  const [month, setMonth] = useState<number>(initial.month);
  const [format, setFormat] = useState<ReportFormat>('xlsx');
  const [language, setLanguage] = useState<ReportLanguage>(i18n.language as ReportLanguage);
  const [ordered, setOrdered] = useState<ReportOrderAnswer | null>(null);
  const [job, setJob] = useState<JobRun | null>(null);
  const [downloadError, setDownloadError] = useState<string | null>(null);
  const order = useOrderReport();
  const f = useFormat();
  // Money in the area's own currency ("NOK", "NOK/MWh"); other units by name.
  const unitText = (unit: string | null) =>
    unit === 'currency'
      ? f.currency
      : unit === 'currency/MWh'
        ? f.priceUnit
        : unit
          ? t(`unit.${unit}`, { defaultValue: unit })
          : '';

  const months = Array.from({ length: 12 }, (_, i) => ({
    value: String(i + 1),
    label: new Intl.DateTimeFormat(i18n.language, { month: 'long', timeZone: 'UTC' }).format(Date.UTC(2026, i, 15)),
  }));

  return (
    <Stack gap="md">
      <PageTitle {...props} />
      {reports.isPending && <Loader size="sm" role="status" aria-label={t('loading')} />}
      {reports.isError && <Alert color="red">{apiErrorMessages(reports.error, tRoot).join(' ')}</Alert>}
      {isSchedulable(name) && (REPORT_NAMES as readonly string[]).includes(name) && (
        <Anchor component={Link} to={`/reports/schedules/${name}`}>
          {t('order.schedules')}
        </Anchor>
      )}
      {reports.data && !report && (
        <Alert color="yellow" data-testid="report-unavailable">
          {t('order.unavailable')}
        </Alert>
      )}
      {report && (
        <>
          <form
            onSubmit={(event) => {
              event.preventDefault();
              setOrdered(null);
              setJob(null);
              setDownloadError(null);
              order.mutate(
                { report: name, year, month, zoneId: timeZone, format, language },
                { onSuccess: (answer) => setOrdered(answer) },
              );
            }}
          >
            <Group align="end" wrap="wrap">
              <Select
                label={t('order.month')}
                data={months}
                value={String(month)}
                allowDeselect={false}
                onChange={(value) => value && setMonth(Number(value))}
              />
              <NumberInput
                label={t('order.year')}
                value={year}
                min={1970}
                max={2069}
                allowDecimal={false}
                onChange={(value) => typeof value === 'number' && setYear(value)}
              />
              <Select
                label={t('order.format')}
                data={report.formats.map((f) => ({ value: f, label: f.toUpperCase() }))}
                value={format}
                allowDeselect={false}
                onChange={(value) => value && setFormat(value as ReportFormat)}
              />
              <Select
                label={t('order.language')}
                data={LANGUAGES.map((l) => ({ value: l, label: tRoot(`shell.language.${l}`) }))}
                value={language}
                allowDeselect={false}
                onChange={(value) => value && setLanguage(value as ReportLanguage)}
              />
              <Button type="submit" loading={order.isPending}>
                {t('order.submit')}
              </Button>
            </Group>
          </form>
          {order.isError && (
            <Alert color="red" data-testid="order-error">
              {apiErrorMessages(order.error, tRoot).join(' ')}
            </Alert>
          )}
          {ordered && (
            <Stack gap="xs" data-testid="report-ordered">
              <Text>{t('order.ordered', { file: ordered.fileName })}</Text>
              <JobProgress jobId={ordered.jobId} label={t('order.job')} onFinished={setJob} />
              {job?.status === 'success' && (
                <Group>
                  <Button
                    variant="outline"
                    onClick={() => {
                      setDownloadError(null);
                      downloadReportFile(ordered).catch((error: unknown) =>
                        setDownloadError(apiErrorMessages(error, tRoot).join(' ') || t('order.download_failed')),
                      );
                    }}
                  >
                    {t('order.download', { file: ordered.fileName })}
                  </Button>
                </Group>
              )}
              {downloadError && <Alert color="red">{downloadError}</Alert>}
            </Stack>
          )}
          <Table striped data-testid="report-columns">
            <caption>{t('order.columns')}</caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('order.column')}</Table.Th>
                <Table.Th>{t('order.unit')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {report.columns.map((column) => (
                <Table.Tr key={column.key}>
                  <Table.Td>{column.header}</Table.Td>
                  <Table.Td>{unitText(column.unit)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </>
      )}
    </Stack>
  );
}
