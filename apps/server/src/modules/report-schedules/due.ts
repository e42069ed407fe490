import { instantToWallClock, wallClockToInstant, type ScheduleFrequency } from '@railwatt/contracts';

/**
 * When a report schedule is due and which period a run reports (issue 20 item 4), on the wall clock
 * of the area's zone: daily at `time`, weekly on `dayOfWeek` (1 Monday to 7 Sunday), monthly on
 * `dayOfMonth` (a shorter month: its last day). A time that a daylight-saving change skips runs at
 * the first instant after it (wallClockToInstant); one that occurs twice runs once.
 */
export interface ScheduleTiming {
  frequency: ScheduleFrequency;
  time: string;
  dayOfWeek: number | null;
  dayOfMonth: number | null;
}

const DAY_MS = 86_400_000;
const daysInMonth = (year: number, month0: number) => new Date(Date.UTC(year, month0 + 1, 0)).getUTCDate();

function runsOn(timing: ScheduleTiming, wallDay: Date): boolean {
  switch (timing.frequency) {
    case 'daily':
      return true;
    case 'weekly':
      // getUTCDay: 0 Sunday .. 6 Saturday; the schedule's 1 Monday .. 7 Sunday.
      return (wallDay.getUTCDay() || 7) === timing.dayOfWeek;
    case 'monthly': {
      const last = daysInMonth(wallDay.getUTCFullYear(), wallDay.getUTCMonth());
      return wallDay.getUTCDate() === Math.min(timing.dayOfMonth ?? 1, last);
    }
  }
}

/** The first instant strictly after `after` at which the schedule is due. */
export function nextRunAfter(timing: ScheduleTiming, after: Date, zone: string): Date {
  const [hours, minutes] = timing.time.split(':').map(Number) as [number, number];
  const wall = new Date(instantToWallClock(after.getTime(), zone));
  const firstDay = Date.UTC(wall.getUTCFullYear(), wall.getUTCMonth(), wall.getUTCDate());
  // A monthly schedule is due within 31 days; two months are ample for any.
  for (let day = 0; day <= 62; day++) {
    const wallDay = new Date(firstDay + day * DAY_MS);
    if (!runsOn(timing, wallDay)) continue;
    const at = wallClockToInstant(wallDay.getTime() + (hours * 60 + minutes) * 60_000, zone);
    if (at.getTime() > after.getTime()) return at;
  }
  throw new Error(`No run of ${JSON.stringify(timing)} within two months`);
}

/**
 * The month a run at `runAt` reports: the last whole month (in the zone) that ended at least
 * `monthsAfterPeriod` months and `daysAfterPeriod` days before the run's day. A run on 5 March with
 * 0 and 0 reports February; with 10 days after, January until 11 March.
 */
export function reportedMonth(
  runAt: Date,
  zone: string,
  after: { daysAfterPeriod: number; monthsAfterPeriod: number },
): { year: number; month: number } {
  const wall = new Date(instantToWallClock(runAt.getTime(), zone));
  const year = wall.getUTCFullYear();
  const month0 = wall.getUTCMonth() - after.monthsAfterPeriod;
  const day = Math.min(wall.getUTCDate(), daysInMonth(year, month0));
  const reference = new Date(Date.UTC(year, month0, day) - after.daysAfterPeriod * DAY_MS);
  const previous = new Date(Date.UTC(reference.getUTCFullYear(), reference.getUTCMonth() - 1, 1));
  return { year: previous.getUTCFullYear(), month: previous.getUTCMonth() + 1 };
}
