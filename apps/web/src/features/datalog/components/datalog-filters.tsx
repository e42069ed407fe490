import { useState } from 'react';
import { Button, Group, MultiSelect, Paper, SimpleGrid, Switch, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { DayInput } from '../../../components/ui/set-status-dialog';
import { dataLogStatusesQuery, dataLogTypesQuery } from '../api/datalog-queries';
import { EMPTY_FILTERS, type DataLogFilterFields } from '../hooks/use-datalog-search';
import { useDataLogT } from '../hooks/use-datalog-t';

const splitList = (value: string): string[] | undefined => {
  const items = value
    .split(/[,;\s]+/)
    .map((s) => s.trim())
    .filter(Boolean);
  return items.length > 0 ? items : undefined;
};

/** The settlement data log's filters (calls.md §3), edited as a draft and applied to the URL by Search. */
export function DataLogFilters({
  value,
  onSearch,
}: {
  value: DataLogFilterFields;
  onSearch: (filters: DataLogFilterFields) => void;
}) {
  const { t } = useDataLogT();
  const [draft, setDraft] = useState<DataLogFilterFields>(value);
  // Identifier lists are typed as text ("a, b c") and split on Search.
  const [cps, setCps] = useState((value.consumptionPoints ?? []).join(', '));
  const [ids, setIds] = useState((value.entityIdentifiers ?? []).join(', '));
  const types = useQuery(dataLogTypesQuery());
  const statuses = useQuery(dataLogStatusesQuery());

  const set = <K extends keyof DataLogFilterFields>(key: K, v: DataLogFilterFields[K]) =>
    setDraft((d) => ({ ...d, [key]: v }));
  const text = (key: 'fileName' | 'baseId' | 'trainId') => ({
    label: t(`filter.${key}`),
    value: draft[key] ?? '',
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => set(key, e.currentTarget.value || undefined),
  });
  const statusLabel = (s: string) => t(`status.${s.toLowerCase()}`, { defaultValue: s });

  return (
    <Paper withBorder p="sm" mb="md">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          onSearch({ ...draft, consumptionPoints: splitList(cps), entityIdentifiers: splitList(ids) });
        }}
      >
        <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }} spacing="xs">
          <DayInput
            label={t('filter.processingFrom')}
            clearable
            value={draft.from ?? null}
            onChange={(d) => set('from', d ?? undefined)}
          />
          <DayInput
            label={t('filter.processingTo')}
            clearable
            value={draft.to ?? null}
            onChange={(d) => set('to', d ?? undefined)}
          />
          <MultiSelect
            label={t('filter.types')}
            searchable
            nothingFoundMessage={t('noOptions')}
            data={(types.data ?? []).map((type) => ({ value: type, label: t(`type.${type}`, { defaultValue: type }) }))}
            value={draft.types ?? []}
            onChange={(v) => set('types', v.length ? v : undefined)}
          />
          <MultiSelect
            label={t('filter.statuses')}
            searchable
            nothingFoundMessage={t('noOptions')}
            data={(statuses.data ?? []).map((s) => ({ value: s, label: statusLabel(s) }))}
            value={draft.statuses ?? []}
            onChange={(v) => set('statuses', v.length ? v : undefined)}
          />
          <Switch
            mt="lg"
            label={t('filter.enableObservationTime')}
            checked={draft.observation ?? false}
            onChange={(e) => set('observation', e.currentTarget.checked || undefined)}
          />
          <DayInput
            label={t('filter.observationFrom')}
            clearable
            value={draft.obsFrom ?? null}
            onChange={(d) => set('obsFrom', d ?? undefined)}
          />
          <DayInput
            label={t('filter.observationTo')}
            clearable
            value={draft.obsTo ?? null}
            onChange={(d) => set('obsTo', d ?? undefined)}
          />
          <TextInput {...text('fileName')} />
          <TextInput
            label={t('filter.consumptionPoints')}
            value={cps}
            onChange={(e) => setCps(e.currentTarget.value)}
          />
          <TextInput
            label={t('filter.entityIdentifiers')}
            value={ids}
            onChange={(e) => setIds(e.currentTarget.value)}
          />
          <TextInput {...text('baseId')} />
          <TextInput {...text('trainId')} />
        </SimpleGrid>
        <Group justify="flex-end" mt="sm">
          <Button
            variant="subtle"
            onClick={() => {
              setDraft(EMPTY_FILTERS);
              setCps('');
              setIds('');
              onSearch(EMPTY_FILTERS);
            }}
          >
            {t('clearFilters')}
          </Button>
          <Button type="submit">{t('search')}</Button>
        </Group>
      </form>
    </Paper>
  );
}
