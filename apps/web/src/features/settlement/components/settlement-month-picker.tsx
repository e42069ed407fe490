import { MonthPickerInput } from '@mantine/dates';
import type { SettlementMonth } from '../api/settlement-queries';
import { firstDay, monthOfDay } from '../hooks/settlement-month';
import { useSettlementT } from '../hooks/use-settlement-t';

/** The month (year and month) a settlement screen shows; the screen keeps it in the URL. */
export function SettlementMonthPicker({
  value,
  onChange,
}: {
  value: SettlementMonth;
  onChange: (month: SettlementMonth) => void;
}) {
  const { t } = useSettlementT();
  return (
    <MonthPickerInput
      label={t('month')}
      value={firstDay(value)}
      onChange={(day) => {
        if (day) onChange(monthOfDay(day));
      }}
      valueFormat="MM.YYYY"
      minDate="1970-01-01"
      maxDate="2069-12-31"
      w={160}
      data-testid="settlement-month"
    />
  );
}
