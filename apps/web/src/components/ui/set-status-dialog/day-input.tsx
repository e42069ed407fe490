import { DateInput } from '@mantine/dates';
import { parseDayInput } from './zoned-date';

export interface DayInputProps {
  label: string;
  value: string | null;
  onChange: (day: string | null) => void;
  onBlur?: () => void;
  error?: string;
  clearable?: boolean;
  required?: boolean;
  'data-testid'?: string;
}

/**
 * A calendar day picker with the spec's date picker rules (product.md §5): dd.MM.yyyy, min 1970,
 * max 2070, week starting Monday. The value is 'YYYY-MM-DD' or null.
 */
export function DayInput({ label, value, onChange, onBlur, error, clearable, required, ...rest }: DayInputProps) {
  return (
    <DateInput
      label={label}
      value={value}
      onChange={(next) => onChange(next ? String(next).slice(0, 10) : null)}
      onBlur={onBlur}
      error={error}
      clearable={clearable}
      withAsterisk={required}
      valueFormat="DD.MM.YYYY"
      placeholder="dd.mm.yyyy"
      dateParser={(input) => parseDayInput(input)}
      minDate="1970-01-01"
      maxDate="2070-01-01"
      firstDayOfWeek={1}
      data-testid={rest['data-testid']}
    />
  );
}
