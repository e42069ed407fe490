import { useState } from 'react';
import { Button, Group, MultiSelect, Paper, Select, SimpleGrid, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ProcedureName } from '@railwatt/contracts';
import { minimalListQuery } from '../../../components/ui/entity-kit/entity-api';
import { DayInput } from '../../../components/ui/set-status-dialog';
import { resultStatusesQuery } from '../api/processing-queries';
import { EMPTY_LOG_FILTERS, type ProcessLogFilterFields } from '../hooks/use-monitor-search';
import { useMonitorT } from '../hooks/use-monitor-t';

/** Options of an entity lookup (GET /domain/{type}/minimal/all), by name. */
function useEntityOptions(kind: 'consumptionpoint' | 'tractionunit' | 'organisation') {
  const list = useQuery(minimalListQuery(kind));
  return (list.data ?? [])
    .map((e) => ({ value: e.uuid, label: e.name }))
    .sort((a, b) => a.label.localeCompare(b.label));
}

/** Pickers over long lookups render this many options; typing narrows them. */
const OPTION_LIMIT = 100;

/** The process log's filters (calls.md §3 "Process log filter"), a draft applied by Search. */
export function ProcessLogFilters({
  procedure,
  value,
  onSearch,
}: {
  procedure: ProcedureName;
  value: ProcessLogFilterFields;
  onSearch: (filters: ProcessLogFilterFields) => void;
}) {
  const { t } = useMonitorT();
  const [draft, setDraft] = useState<ProcessLogFilterFields>(value);
  const statuses = useQuery(resultStatusesQuery(procedure));
  const points = useEntityOptions('consumptionpoint');
  const units = useEntityOptions('tractionunit');
  const organisations = useEntityOptions('organisation');
  const set = <K extends keyof ProcessLogFilterFields>(key: K, v: ProcessLogFilterFields[K]) =>
    setDraft((d) => ({ ...d, [key]: v }));
  const day = (key: 'from' | 'to' | 'obsFrom' | 'obsTo') => (
    <DayInput
      label={t(`filter.${key}`)}
      clearable
      value={draft[key] ?? null}
      onChange={(d) => set(key, d ?? undefined)}
      data-testid={`filter-${key}`}
    />
  );

  return (
    <Paper withBorder p="sm" mb="md">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          onSearch(draft);
        }}
      >
        <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }} spacing="xs">
          {day('from')}
          {day('to')}
          {day('obsFrom')}
          {day('obsTo')}
          <MultiSelect
            label={t('filter.statuses')}
            data={(statuses.data ?? []).map((s) => ({ value: s, label: t(`status.${s}`) }))}
            value={draft.statuses ?? []}
            onChange={(v) => set('statuses', v.length ? (v as ProcessLogFilterFields['statuses']) : undefined)}
            data-testid="filter-statuses"
          />
          <TextInput
            label={t('filter.user')}
            value={draft.user ?? ''}
            onChange={(e) => set('user', e.currentTarget.value || undefined)}
          />
          <Select
            label={t('filter.consumptionPoint')}
            searchable
            clearable
            limit={OPTION_LIMIT}
            nothingFoundMessage={t('noOptions')}
            data={points}
            value={draft.cp ?? null}
            onChange={(v) => set('cp', v ?? undefined)}
          />
          <MultiSelect
            label={t('filter.tractionUnits')}
            searchable
            limit={OPTION_LIMIT}
            nothingFoundMessage={t('noOptions')}
            data={units}
            value={draft.units ?? []}
            onChange={(v) => set('units', v.length ? v : undefined)}
          />
          <MultiSelect
            label={t('filter.organisations')}
            searchable
            limit={OPTION_LIMIT}
            nothingFoundMessage={t('noOptions')}
            data={organisations}
            value={draft.orgs ?? []}
            onChange={(v) => set('orgs', v.length ? v : undefined)}
          />
        </SimpleGrid>
        <Group justify="flex-end" mt="sm">
          <Button
            variant="subtle"
            onClick={() => {
              setDraft(EMPTY_LOG_FILTERS);
              onSearch(EMPTY_LOG_FILTERS);
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
