import { Alert, Anchor, Group, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { isSchedulable, type ReportDescription, type ReportLanguage } from '@railwatt/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageTitle } from '../../../components/ui/page-title';
import { apiErrorMessages } from '../../../lib/errors';
import type { ScreenProps } from '../../../lib/routes';
import { useNamespaceT } from '../../../lib/use-namespace-t';
import { reportListQuery } from '../api/reports';

/**
 * /reports: the reports this user may order in the area (GET /domain/reports), grouped by family, each
 * with its schedules (/reports/schedules/<report>) when it has a schedule page: every report page one
 * click from the section.
 */
export function ReportsIndexPage(props: ScreenProps) {
  const { t, tRoot } = useNamespaceT('reportOrder');
  const { i18n } = useTranslation();
  const reports = useQuery(reportListQuery(i18n.language as ReportLanguage));
  const families = new Map<string, ReportDescription[]>();
  for (const report of reports.data ?? [])
    families.set(report.family, [...(families.get(report.family) ?? []), report]);

  return (
    <Stack gap="md">
      <PageTitle {...props} />
      <Text>{t('index.intro')}</Text>
      {reports.isPending && <Loader size="sm" role="status" aria-label={t('loading')} />}
      {reports.isError && <Alert color="red">{apiErrorMessages(reports.error, tRoot).join(' ')}</Alert>}
      {reports.data && reports.data.length === 0 && <Text>{t('index.none')}</Text>}
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        {[...families].map(([family, list]) => (
          <Stack key={family} gap={4} data-testid={`report-family-${family}`}>
            <Title order={2} size="h4">
              {t(`family.${family}`, { defaultValue: family })}
            </Title>
            {list.map((report) => (
              <Group key={report.name} gap="sm">
                <Anchor component={Link} to={`/reports/${report.name}`}>
                  {report.title}
                </Anchor>
                {isSchedulable(report.name) && (
                  <Anchor
                    component={Link}
                    to={`/reports/schedules/${report.name}`}
                    size="sm"
                    aria-label={t('index.schedulesOf', { report: report.title })}
                  >
                    {t('index.schedules')}
                  </Anchor>
                )}
              </Group>
            ))}
          </Stack>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
