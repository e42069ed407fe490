import { Checkbox, MultiSelect, Select, TextInput, Textarea } from '@mantine/core';
import { Controller, type Control, type FieldError } from 'react-hook-form';
import type { FormField } from '@railwatt/contracts';
import { DayInput } from '../set-status-dialog';
import { byName, useMinimalEntities } from './entity-api';
import type { EntityFormValues } from './entity-form-schema';
import { useEntityKitT } from './use-entity-kit';

const WEEKDAYS = ['1', '2', '3', '4', '5', '6', '7', '8'];

export interface EntityFieldProps {
  field: FormField;
  control: Control<EntityFormValues>;
  error: FieldError | undefined;
  /** The error as the user reads it (translated form rule or contract message). */
  errorText: (error: FieldError | undefined) => string | undefined;
  /** The uuid of the entity being edited: it is not offered as a reference to itself. */
  self?: string;
}

/** One input of a registration form, chosen by the descriptor's input kind. */
export function EntityFieldInput({ field, control, error, errorText, self }: EntityFieldProps) {
  const { t } = useEntityKitT();
  const label = t(`field.${field.name}`, { defaultValue: field.name });
  const common = { label, withAsterisk: field.required, error: errorText(error) };
  const name = `fields.${field.name}` as const;

  switch (field.input) {
    case 'reference':
    case 'references':
      return <ReferenceInput field={field} control={control} common={common} self={self} />;
    case 'boolean':
      return (
        <Controller
          control={control}
          name={name}
          render={({ field: f }) => (
            <Checkbox
              mt="lg"
              label={label}
              checked={f.value === true}
              onChange={(e) => f.onChange(e.currentTarget.checked)}
              onBlur={f.onBlur}
              error={common.error}
            />
          )}
        />
      );
    case 'date':
      return (
        <Controller
          control={control}
          name={name}
          render={({ field: f }) => (
            <DayInput
              label={label}
              error={common.error}
              required={field.required}
              clearable
              value={typeof f.value === 'string' && f.value !== '' ? f.value : null}
              onChange={(day) => f.onChange(day ?? '')}
              onBlur={f.onBlur}
            />
          )}
        />
      );
    case 'weekdays':
      return (
        <Controller
          control={control}
          name={name}
          render={({ field: f }) => (
            <MultiSelect
              {...common}
              data={WEEKDAYS.map((d) => ({ value: d, label: t(`weekday.${d}`) }))}
              value={Array.isArray(f.value) ? f.value : []}
              onChange={f.onChange}
              onBlur={f.onBlur}
            />
          )}
        />
      );
    case 'enum':
      return (
        <Controller
          control={control}
          name={name}
          render={({ field: f }) => (
            <Select
              {...common}
              placeholder={t('please_select')}
              nothingFoundMessage={t('no_options')}
              data={[...(field.options ?? [])].map((o) => ({ value: o, label: o })).sort(byName)}
              value={typeof f.value === 'string' && f.value !== '' ? f.value : null}
              onChange={(v) => f.onChange(v ?? '')}
              onBlur={f.onBlur}
            />
          )}
        />
      );
    default:
      return (
        <Controller
          control={control}
          name={name}
          render={({ field: f }) => {
            const props = {
              ...common,
              name: f.name,
              ref: f.ref,
              value: typeof f.value === 'string' ? f.value : '',
              onChange: (e: { currentTarget: { value: string } }) => f.onChange(e.currentTarget.value),
              onBlur: f.onBlur,
            };
            if (field.input === 'textarea') return <Textarea {...props} autosize minRows={1} />;
            return (
              <TextInput
                {...props}
                inputMode={field.input === 'number' ? 'decimal' : field.input === 'integer' ? 'numeric' : undefined}
                placeholder={
                  field.input === 'location' ? t('placeholder.location') : field.input === 'time' ? 'HH:mm' : undefined
                }
              />
            );
          }}
        />
      );
  }
}

/** A picker over the entities of the field's target kinds (GET /domain/{type}/minimal/all), sorted by name. */
function ReferenceInput({
  field,
  control,
  common,
  self,
}: {
  field: FormField;
  control: Control<EntityFormValues>;
  common: { label: string; withAsterisk: boolean; error: string | undefined };
  self?: string;
}) {
  const { t } = useEntityKitT();
  const { entities } = useMinimalEntities(field.targets ?? []);
  const options = entities
    .filter((e) => e.uuid !== self)
    .map((e) => ({ value: e.uuid, label: e.name }))
    .sort(byName);
  return (
    <Controller
      control={control}
      name={`fields.${field.name}`}
      render={({ field: f }) =>
        field.input === 'references' ? (
          <MultiSelect
            {...common}
            searchable
            placeholder={t('please_select')}
            nothingFoundMessage={t('no_options')}
            data={options}
            value={Array.isArray(f.value) ? f.value : []}
            onChange={f.onChange}
            onBlur={f.onBlur}
          />
        ) : (
          <Select
            {...common}
            searchable
            clearable={!field.required}
            placeholder={t('please_select')}
            nothingFoundMessage={t('no_options')}
            data={options}
            value={typeof f.value === 'string' && f.value !== '' ? f.value : null}
            onChange={(v) => f.onChange(v ?? '')}
            onBlur={f.onBlur}
          />
        )
      }
    />
  );
}
