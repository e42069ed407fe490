export { SetStatusDialog } from './set-status-dialog';
export type { SetStatusDialogProps, SetStatusFormValues } from './set-status-dialog';
export { DayInput } from './day-input';
export { dayInZone, dayRangeInZone, dayStartInZone, formatDay, parseDayInput } from './zoned-date';
