import { useState } from 'react';
import { Button, Group, MultiSelect, Paper, SimpleGrid, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useFleetT } from '../hooks/use-fleet-t';
import { ENTITY_STATES } from '@railwatt/contracts';
import { DayInput } from '../../../components/ui/set-status-dialog';
import { minimalAllQuery, ownerChoicesQuery } from '../api/fleet-queries';
import { EMPTY_FILTERS, type FleetFilterFields } from '../hooks/use-fleet-search';

const byName = (a: { label: string }, b: { label: string }) =>
  a.label.localeCompare(b.label, undefined, { numeric: true, sensitivity: 'base' });

/** The overview's filters. They are edited as a draft and applied to the URL by Search. */
export function FleetFilters({
  value,
  onSearch,
}: {
  value: FleetFilterFields;
  onSearch: (filters: FleetFilterFields) => void;
}) {
  const { t } = useFleetT();
  const [draft, setDraft] = useState<FleetFilterFields>(value);
  const types = useQuery(minimalAllQuery('tractionunittype'));
  // A vehicle keeper filters by the organisations it may write for, not by every owner in the area.
  const organisations = useQuery(ownerChoicesQuery());

  const set = <K extends keyof FleetFilterFields>(key: K, v: FleetFilterFields[K]) =>
    setDraft((d) => ({ ...d, [key]: v }));
  const text = (key: 'evn' | 'vkm' | 'nvr' | 'description' | 'name' | 'emsType' | 'emsId') => ({
    label: t(`overview.filter.${key}`),
    value: draft[key] ?? '',
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => set(key, e.currentTarget.value || undefined),
  });

  return (
    <Paper withBorder p="sm" mb="md">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          onSearch(draft);
        }}
      >
        <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }} spacing="xs">
          <TextInput {...text('evn')} />
          <TextInput {...text('vkm')} />
          <TextInput {...text('nvr')} />
          <TextInput {...text('description')} />
          <TextInput {...text('name')} />
          <MultiSelect
            label={t('overview.filter.type')}
            searchable
            nothingFoundMessage={t('no_options')}
            data={(types.data ?? []).map((x) => ({ value: x.uuid, label: x.name })).sort(byName)}
            value={draft.types ?? []}
            onChange={(v) => set('types', v)}
          />
          <MultiSelect
            label={t('overview.filter.responsible')}
            searchable
            nothingFoundMessage={t('no_options')}
            data={(organisations.data ?? []).map((x) => ({ value: x.uuid, label: x.name })).sort(byName)}
            value={draft.owners ?? []}
            onChange={(v) => set('owners', v)}
          />
          <MultiSelect
            label={t('overview.filter.status')}
            data={ENTITY_STATES.map((s) => ({ value: s, label: t(`state.${s}`) }))}
            value={draft.statuses ?? []}
            onChange={(v) => set('statuses', v)}
          />
          <TextInput {...text('emsType')} />
          <TextInput {...text('emsId')} />
          <DayInput
            label={t('overview.filter.valid_from')}
            clearable
            value={draft.from ?? null}
            onChange={(d) => set('from', d ?? undefined)}
          />
          <DayInput
            label={t('overview.filter.valid_to')}
            clearable
            value={draft.to ?? null}
            onChange={(d) => set('to', d ?? undefined)}
          />
        </SimpleGrid>
        <Group justify="flex-end" mt="sm">
          <Button
            variant="subtle"
            onClick={() => {
              setDraft(EMPTY_FILTERS);
              onSearch(EMPTY_FILTERS);
            }}
          >
            {t('overview.clear_filters')}
          </Button>
          <Button type="submit">{t('overview.search')}</Button>
        </Group>
      </form>
    </Paper>
  );
}
