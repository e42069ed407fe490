import { Alert, Anchor, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { PageTitle } from '../../../../components/ui/page-title';
import { TimeSeriesUploadButton } from '../../../../components/ui/upload-dialog';
import { apiErrorMessages } from '../../../../lib/errors';
import type { ScreenProps } from '../../../../lib/routes';
import { useNamespaceT } from '../../../../lib/use-namespace-t';
import { timeSeriesTypesQuery } from '../../api/timeseries';

/** Where uploaded files and their import jobs are listed (the monitor's data log). */
export const DATA_LOG_PATH = '/monitor/datalog';

/**
 * /administration/timeseries/import: the time-series upload dialog (open on arrival, like the other
 * import pages), the time-series types as a reference (unit and resolution a file must match), and a
 * link to the data log, where every uploaded file and its outcome is listed.
 */
export function TimeSeriesImportPage(props: ScreenProps) {
  const { t, tRoot } = useNamespaceT('timeseriesUpload');
  const types = useQuery(timeSeriesTypesQuery());
  return (
    <Stack gap="md">
      <PageTitle {...props} />
      <Text>{t('page.intro')}</Text>
      <TimeSeriesUploadButton initiallyOpened />
      <Anchor component={Link} to={DATA_LOG_PATH} data-testid="datalog-link">
        {t('page.datalog_link')}
      </Anchor>

      <Title order={2} size="h3">
        {t('page.types.title')}
      </Title>
      {types.isError && (
        <Alert color="red">{apiErrorMessages(types.error, tRoot).join(' ') || t('page.types.load_failed')}</Alert>
      )}
      {types.data && types.data.length === 0 && <Text>{t('page.types.empty')}</Text>}
      {types.data && types.data.length > 0 && (
        <Table striped data-testid="timeseries-types">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('page.types.typeName')}</Table.Th>
              <Table.Th>{t('page.types.refKind')}</Table.Th>
              <Table.Th>{t('page.types.unit')}</Table.Th>
              <Table.Th>{t('page.types.resolution')}</Table.Th>
              <Table.Th>{t('page.types.source')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {types.data.map((type) => (
              <Table.Tr key={type.typeName} data-testid="timeseries-type-row">
                <Table.Td>{type.typeName}</Table.Td>
                <Table.Td>{type.refKind}</Table.Td>
                <Table.Td>{type.unit}</Table.Td>
                <Table.Td>{type.resolution}</Table.Td>
                <Table.Td>{type.source}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
