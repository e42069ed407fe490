import { useMemo } from 'react';
import { z } from 'zod';
import { dayInZone, dayStartInZone } from '@railwatt/contracts';
import { useMarketStore } from '../../../lib/stores/market-store';
import type { MonthRange, SettlementMonth } from '../api/settlement-queries';

/** The zone a screen shows times in before the area's own is known. */
const FALLBACK_ZONE = 'Europe/Oslo';

/** The selected area's time zone: the settlement screens show and send every month and time in it. */
export function useSettlementZone(): string {
  return useMarketStore((s) => s.timeZone) ?? FALLBACK_ZONE;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The month in the URL (year, month); anything invalid reads as none, and the screen uses its default. */
export const monthSearchShape = {
  year: z.coerce.number().int().min(1970).max(2069).optional().catch(undefined),
  month: z.coerce.number().int().min(1).max(12).optional().catch(undefined),
};

/** calls.md §9: the initial month is the previous one (December of last year in January). */
export function previousMonth(today: string): SettlementMonth {
  const [year, month] = today.split('-').map(Number) as [number, number];
  return month === 1 ? { year: year - 1, month: 12 } : { year, month: month - 1 };
}

/** The month's first day, 'YYYY-MM-01' (the month picker's value). */
export const firstDay = ({ year, month }: SettlementMonth): string => `${year}-${pad(month)}-01`;

/** 'YYYY-MM-DD' -> its month. */
export function monthOfDay(day: string): SettlementMonth {
  const [year, month] = day.split('-').map(Number) as [number, number];
  return { year, month };
}

/** The month as people read it: MM.yyyy. */
export const monthText = ({ year, month }: SettlementMonth): string => `${pad(month)}.${year}`;

/** The month's [start, end) as instants: the midnights of its first day and the next month's, in the zone. */
export function monthRange({ year, month }: SettlementMonth, timeZone: string): MonthRange {
  const next = month === 12 ? { year: year + 1, month: 1 } : { year, month: month + 1 };
  return { start: dayStartInZone(firstDay({ year, month }), timeZone), end: dayStartInZone(firstDay(next), timeZone) };
}

/**
 * The month a settlement screen shows: the URL's year and month when both are there, else the
 * previous month in the area's zone. The returned object keeps its identity while the month does.
 */
export function useSettlementMonth(search: { year?: number; month?: number }, timeZone: string): SettlementMonth {
  const { year, month } = search;
  return useMemo(
    () => (year && month ? { year, month } : previousMonth(dayInZone(new Date(), timeZone))),
    [year, month, timeZone],
  );
}
