import { useEffect, useState } from 'react';
import { Button, Group, NumberInput, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { COMPLETENESS_MAX_HOURS, COMPLETENESS_MIN_HOURS, type CompletenessRow } from '@railwatt/contracts';
import { ApiErrorText } from '../../../../components/ui/api-error';
import { DataTable } from '../../../../components/ui/data-table';
import { PageTitle } from '../../../../components/ui/page-title';
import { formatDateTime } from '../../../../lib/format';
import type { ScreenProps } from '../../../../lib/routes';
import { useFormat } from '../../../../lib/use-format';
import { useMarketStore } from '../../../../lib/stores/market-store';
import { completenessQuery } from '../../api/completeness-queries';
import { useCompletenessSearch } from '../../hooks/use-completeness-search';
import { useCompletenessT } from '../../hooks/use-completeness-t';

/** A row of the consumption-point variant: a missing point with its unit. */
interface PointRow {
  uuid: string;
  cpid: string;
  unit: string;
  ownerName: string | null;
  lastDelivery: string | null;
  hoursMissing: number | null;
}

/**
 * The consumption-point reading (completenessverificationcp): the same answer as the traction-unit
 * screen, one row per point whose own latest record is older than the threshold (or that never
 * delivered), with its unit. The contract's completenessRowSchema states why one call serves both.
 */
const missingPoints = (units: readonly CompletenessRow[]): PointRow[] =>
  units.flatMap((u) =>
    u.consumptionPoints
      .filter((p) => p.missing)
      .map((p) => ({
        uuid: p.uuid,
        cpid: p.cpid,
        unit: u.name,
        ownerName: u.ownerName,
        lastDelivery: p.lastDelivery,
        hoursMissing: p.hoursMissing,
      })),
  );

const matches = (q: string | undefined, ...values: (string | null | undefined)[]) =>
  !q || values.some((v) => v?.toLowerCase().includes(q.toLowerCase()));

/**
 * Completeness verification (product.md §2 Monitor): the traction units (`by="unit"`) or consumption
 * points (`by="point"`) that have not delivered CEBD within the threshold, at least 24 hours
 * (calls.md §9). Threshold, text filter and page live in the URL.
 */
export function CompletenessPage({ by, ...props }: ScreenProps & { by: 'unit' | 'point' }) {
  const { t } = useCompletenessT();
  const f = useFormat();
  const area = useMarketStore((s) => s.area);
  const zone = useMarketStore((s) => s.timeZone) ?? 'UTC';
  const { search, update } = useCompletenessSearch();
  const [threshold, setThreshold] = useState<number | string>(search.threshold);
  const [q, setQ] = useState(search.q ?? '');
  useEffect(() => setThreshold(search.threshold), [search.threshold]);
  useEffect(() => setQ(search.q ?? ''), [search.q]);

  const tooLow = (value: number | string) => typeof value !== 'number' || value < COMPLETENESS_MIN_HOURS;
  const applied = !tooLow(search.threshold);
  const query = useQuery({
    ...completenessQuery(area?.uuid ?? '', search.threshold),
    enabled: Boolean(area) && applied,
  });
  const [error, setError] = useState<string | null>(null);
  // A threshold under 24 read from the URL is named until the field is changed.
  const shownError = error ?? (!applied && threshold === search.threshold ? t('thresholdMin') : null);

  const submit = () => {
    if (tooLow(threshold)) {
      setError(t('thresholdMin'));
      return;
    }
    setError(null);
    update({ threshold: Number(threshold), q: q.trim(), page: 1 });
  };

  const delivered = (instant: string | null) => (instant ? formatDateTime(instant, zone) : t('never'));
  const units = (query.data ?? []).filter((u) =>
    matches(search.q, u.name, u.evn, u.ownerName, ...u.consumptionPoints.map((p) => p.cpid)),
  );
  const points = missingPoints(query.data ?? []).filter((p) => matches(search.q, p.cpid, p.unit, p.ownerName));
  const total = by === 'unit' ? units.length : points.length;
  const from = (search.page - 1) * search.size;
  const pagination = {
    page: search.page,
    size: search.size,
    totalPages: Math.max(1, Math.ceil(total / search.size)),
    totalElements: total,
    onChange: (next: { page: number; size: number }) => update({ page: next.page, size: next.size }),
  };

  const unitColumns: ColumnDef<CompletenessRow>[] = [
    { accessorKey: 'name', header: t('tractionUnit') },
    { id: 'evn', header: t('evn'), cell: ({ row }) => row.original.evn ?? '' },
    { id: 'owner', header: t('owner'), cell: ({ row }) => row.original.ownerName ?? '' },
    { id: 'lastDelivery', header: t('lastDelivery'), cell: ({ row }) => delivered(row.original.lastDelivery) },
    { id: 'hoursMissing', header: t('hoursMissing'), cell: ({ row }) => f.number(row.original.hoursMissing) },
    {
      id: 'missingPoints',
      header: t('missingPoints'),
      cell: ({ row }) =>
        row.original.consumptionPoints
          .filter((p) => p.missing)
          .map((p) => p.cpid)
          .join(', '),
    },
  ];
  const pointColumns: ColumnDef<PointRow>[] = [
    { accessorKey: 'cpid', header: t('cpid') },
    { accessorKey: 'unit', header: t('tractionUnit') },
    { id: 'owner', header: t('owner'), cell: ({ row }) => row.original.ownerName ?? '' },
    { id: 'lastDelivery', header: t('lastDelivery'), cell: ({ row }) => delivered(row.original.lastDelivery) },
    { id: 'hoursMissing', header: t('hoursMissing'), cell: ({ row }) => f.number(row.original.hoursMissing) },
  ];
  const common = {
    emptyMessage: applied ? t(by === 'unit' ? 'emptyUnits' : 'emptyPoints') : '',
    loading: applied && query.isFetching,
    pagination,
    'data-testid': 'completeness-table',
    rowTestId: 'completeness-row',
  };

  return (
    <Stack>
      <PageTitle {...props} />
      <Text c="dimmed" size="sm">
        {t(by === 'unit' ? 'reading.units' : 'reading.points')}
      </Text>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <Group align="flex-end">
          <NumberInput
            label={t('threshold')}
            value={threshold}
            onChange={(value) => {
              setThreshold(value);
              setError(null);
            }}
            min={COMPLETENESS_MIN_HOURS}
            max={COMPLETENESS_MAX_HOURS}
            allowDecimal={false}
            allowNegative={false}
            clampBehavior="none"
            error={shownError}
            w={200}
          />
          <TextInput
            label={t('filter')}
            placeholder={t('filterPlaceholder')}
            value={q}
            onChange={(event) => setQ(event.currentTarget.value)}
            w={280}
          />
          <Button type="submit">{t('search')}</Button>
        </Group>
      </form>
      <ApiErrorText error={query.error} />
      {applied && query.data && (
        <Text size="sm" data-testid="completeness-count">
          {t('count', { count: total })}
        </Text>
      )}
      {by === 'unit' ? (
        <DataTable
          {...common}
          data={applied ? units.slice(from, from + search.size) : []}
          columns={unitColumns}
          getRowId={(u) => u.uuid}
        />
      ) : (
        <DataTable
          {...common}
          data={applied ? points.slice(from, from + search.size) : []}
          columns={pointColumns}
          getRowId={(p) => p.uuid}
        />
      )}
    </Stack>
  );
}
