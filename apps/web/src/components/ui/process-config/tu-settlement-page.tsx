import { useState } from 'react';
import { Button, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import {
  TU_SETTLEMENT_FIELDS,
  dayStartInZone,
  tuSettlementConfigSchema,
  type TuSettlementList,
} from '@railwatt/contracts';
import { ApiErrorText } from '../api-error';
import { PageTitle } from '../page-title';
import { formatDate } from '../../../lib/format';
import type { ScreenProps } from '../../../lib/routes';
import { tuSettlementQuery, useSaveTuSettlement } from './config-api';
import { FieldValue, VersionFields, normalised, useCanWrite, useConfigT, useTimeZone } from './process-config-pages';

type AreaConfig = TuSettlementList[number];

/** One settlement area: the version in use, and for writers a change from a day. */
function AreaCard({ area }: { area: AreaConfig }) {
  const { t } = useConfigT();
  const timeZone = useTimeZone();
  const canWrite = useCanWrite();
  const save = useSaveTuSettlement();
  const [values, setValues] = useState<Record<string, unknown>>(area.current.value);
  const [validFrom, setValidFrom] = useState<string | null>(null);
  const [comments, setComments] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});

  const submit = () => {
    const parsed = tuSettlementConfigSchema.safeParse(normalised(TU_SETTLEMENT_FIELDS, values));
    const next: Record<string, string> = {};
    if (!parsed.success) for (const i of parsed.error.issues) next[String(i.path[0] ?? '')] ??= i.message;
    if (!validFrom) next['validFrom'] = t('edit.validFromRequired');
    setErrors(next);
    if (!parsed.success || !validFrom) return;
    save.mutate({
      settlementAreaId: area.settlementAreaId,
      body: { validFrom: dayStartInZone(validFrom, timeZone), comments: comments || null, value: parsed.data },
    });
  };

  return (
    <Card withBorder data-testid={`tu-area-${area.settlementAreaName}`}>
      <Stack gap="sm">
        <Title order={3}>{area.settlementAreaName}</Title>
        <Text size="sm">
          {area.current.id === 0
            ? t('view.defaults')
            : t('view.validRange', {
                start: formatDate(area.current.timeRange.start, timeZone),
                end: formatDate(area.current.timeRange.end, timeZone),
              })}
        </Text>
        <Table withTableBorder>
          <Table.Tbody>
            {TU_SETTLEMENT_FIELDS.map((field) => (
              <Table.Tr key={field.name}>
                <Table.Th>{t(`field.${field.name}`)}</Table.Th>
                <Table.Td>
                  <FieldValue field={field} value={area.current.value[field.name]} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        {canWrite && (
          <>
            <VersionFields
              fields={TU_SETTLEMENT_FIELDS}
              values={values}
              errors={errors}
              onValues={setValues}
              validFrom={validFrom}
              onValidFrom={setValidFrom}
              comments={comments}
              onComments={setComments}
            />
            <ApiErrorText error={save.isError ? save.error : null} />
            <Group>
              <Button onClick={submit} loading={save.isPending}>
                {t('edit.save')}
              </Button>
            </Group>
          </>
        )}
      </Stack>
    </Card>
  );
}

/**
 * administration/settlementconfiguration (product.md §2, the transmission-unit model): the settlement
 * configuration of each transmission-unit area (norway, sweden, denmark), changed from a day.
 */
export function TuSettlementPage(screen: ScreenProps) {
  const list = useQuery(tuSettlementQuery());
  return (
    <Stack gap="md">
      <PageTitle {...screen} />
      <ApiErrorText error={list.isError ? list.error : null} />
      {list.data?.map((area) => (
        <AreaCard key={area.settlementAreaId} area={area} />
      ))}
    </Stack>
  );
}
