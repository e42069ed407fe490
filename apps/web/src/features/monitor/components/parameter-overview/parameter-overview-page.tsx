import { useMemo } from 'react';
import { Button, Checkbox, Group, Select, Stack, Text } from '@mantine/core';
import { MonthPickerInput } from '@mantine/dates';
import { useQuery } from '@tanstack/react-query';
import {
  MAX_PARAMETER_MONTHS,
  parameterTypeNameSchema,
  policyAdmits,
  POLICIES,
  type TimeSeriesTypeName,
} from '@railwatt/contracts';
import { ApiErrorText } from '../../../../components/ui/api-error';
import { PageTitle } from '../../../../components/ui/page-title';
import type { ScreenProps } from '../../../../lib/routes';
import { useMarketStore } from '../../../../lib/stores/market-store';
import { parameterOverviewQuery, parameterTypesQuery } from '../../api/parameter-overview-queries';
import { useParameterSearch } from '../../hooks/use-parameter-search';
import { useParametersT } from '../../hooks/use-parameters-t';
import { useMonitorZone } from '../monitor-page-title';
import { downloadParameterCsv, parameterCsv } from './parameter-csv';
import {
  defaultMonths,
  monthCount,
  monthLabel,
  monthOf,
  monthsInZone,
  monthToPicker,
  pickerToMonth,
} from './parameter-months';
import { ParameterSheet } from './parameter-sheet';

/**
 * /monitor/parameteroverview (product.md §2 "parameter overview (period, date range, value, save,
 * edit, download, remove, hide empty rows)", calls.md §7 /timeseries/parameterOverview): the monthly
 * parameter values of one type, a row per entity of the type's kind and a column per month of the
 * range (this year up to next month by default, in the area's zone). Type, range and "hide empty rows"
 * live in the URL. Every reader downloads the shown table as CSV; the process runners also set and
 * remove values (ParameterSheet, ParameterWriteBar); the audit roles and the consumer only look.
 */
export function ParameterOverviewPage(props: ScreenProps) {
  const { t, tRoot } = useParametersT();
  const roles = useMarketStore((s) => s.rolesInArea);
  const areaKind = useMarketStore((s) => s.area?.kind ?? null);
  const area = useMarketStore((s) => s.area?.uuid ?? '');
  const timeZone = useMonitorZone();
  const mayRead = policyAdmits(POLICIES.processingRead, roles, areaKind);
  const mayWrite = policyAdmits(POLICIES.processingRun, roles, areaKind);
  const { search, update } = useParameterSearch();
  const typeName = search.type;

  const defaults = useMemo(() => defaultMonths(new Date(), timeZone), [timeZone]);
  const from = search.from ?? defaults.from;
  const to = search.to ?? defaults.to;
  const months = monthCount(from, to);
  const rangeError =
    months < 1
      ? t('range.order')
      : months > MAX_PARAMETER_MONTHS
        ? t('range.tooLong', { max: MAX_PARAMETER_MONTHS })
        : null;
  const range = useMemo(() => monthsInZone(from, to, timeZone), [from, to, timeZone]);

  const types = useQuery({ ...parameterTypesQuery(), enabled: mayRead });
  const overview = useQuery({
    ...parameterOverviewQuery(area, typeName, range),
    enabled: mayRead && Boolean(area) && rangeError === null,
  });

  const data = rangeError === null ? overview.data : undefined;
  const monthHeaders = useMemo(
    () => (data?.periods ?? []).map((p) => monthLabel(monthOf(p.start, timeZone))),
    [data, timeZone],
  );
  const rows = useMemo(() => {
    const all = data?.rows ?? [];
    return search.hideEmpty ? all.filter((row) => row.values.some((v) => v !== null)) : all;
  }, [data, search.hideEmpty]);

  const typeLabel = (name: TimeSeriesTypeName) => t(`types.${name}`);
  const typeOptions = (types.data ?? []).map((type) => ({
    value: type.typeName,
    label: t('typeOption', { label: typeLabel(type.typeName), unit: type.unit }),
  }));

  if (!mayRead) {
    return (
      <Stack gap="sm">
        <PageTitle {...props} />
        <Text data-testid="parameter-not-for-role">{t('notForRole')}</Text>
      </Stack>
    );
  }

  return (
    <Stack gap="sm">
      <PageTitle {...props} />
      <Group align="flex-start" gap="sm">
        <Select
          label={t('type')}
          data={typeOptions}
          value={typeName}
          onChange={(next) => {
            const parsed = parameterTypeNameSchema.safeParse(next);
            if (parsed.success) update({ type: parsed.data });
          }}
          allowDeselect={false}
          w={360}
          data-testid="parameter-type"
        />
        <MonthPickerInput
          label={t('range.from')}
          value={monthToPicker(from)}
          onChange={(next) => update({ from: pickerToMonth(next) })}
          valueFormat="MM.YYYY"
          minDate="1970-01-01"
          maxDate="2069-12-31"
          w={140}
          data-testid="parameter-from"
        />
        <MonthPickerInput
          label={t('range.to')}
          value={monthToPicker(to)}
          onChange={(next) => update({ to: pickerToMonth(next) })}
          valueFormat="MM.YYYY"
          minDate="1970-01-01"
          maxDate="2069-12-31"
          error={rangeError}
          w={140}
          data-testid="parameter-to"
        />
        <Checkbox
          label={t('hideEmpty')}
          checked={search.hideEmpty}
          onChange={(event) => update({ hideEmpty: event.currentTarget.checked || undefined })}
          mt={32}
          data-testid="parameter-hide-empty"
        />
        <Button
          variant="outline"
          mt={25}
          disabled={!data}
          onClick={() => downloadParameterCsv(typeName, parameterCsv(t('column.name'), monthHeaders, rows))}
          data-testid="parameter-download"
        >
          {t('download')}
        </Button>
      </Group>
      {types.isError ? <ApiErrorText error={types.error} fallback={tRoot('api_error_code.unknown')} /> : null}
      {overview.isError ? <ApiErrorText error={overview.error} fallback={tRoot('api_error_code.unknown')} /> : null}
      <ParameterSheet
        key={typeName}
        area={area}
        timeZone={timeZone}
        typeName={typeName}
        typeLabel={typeLabel(typeName)}
        rows={rows}
        monthHeaders={monthHeaders}
        from={from}
        to={to}
        loading={overview.isFetching}
        mayWrite={mayWrite}
      />
    </Stack>
  );
}
