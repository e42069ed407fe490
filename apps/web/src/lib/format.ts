import { dayStartInZone } from '@railwatt/contracts';

/**
 * Dates as the spec shows them (product.md §9): dd.MM.yyyy and dd.MM.yyyy HH:mm, always in the
 * selected area's time zone, never the browser's. The one formatter for every screen.
 */
/** Intl formatters are costly to build (an hourly list formats hundreds of instants): one per zone and shape. */
const dateFormatters = new Map<string, Intl.DateTimeFormat>();
const dateFormatter = (timeZone: string, shape: 'date' | 'dateTime' | 'offset'): Intl.DateTimeFormat => {
  const key = `${timeZone}|${shape}`;
  let found = dateFormatters.get(key);
  if (!found) {
    found = new Intl.DateTimeFormat(
      'en-GB',
      shape === 'offset'
        ? { timeZone, timeZoneName: 'longOffset' }
        : {
            timeZone,
            day: '2-digit',
            month: '2-digit',
            year: 'numeric',
            ...(shape === 'dateTime' ? { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' as const } : {}),
          },
    );
    dateFormatters.set(key, found);
  }
  return found;
};

const parts = (instant: string, timeZone: string, withTime: boolean) => {
  const formatted = dateFormatter(timeZone, withTime ? 'dateTime' : 'date').formatToParts(new Date(instant));
  return (type: string) => formatted.find((p) => p.type === type)?.value ?? '';
};

const valid = (instant: string | null | undefined): instant is string =>
  Boolean(instant) && !Number.isNaN(new Date(instant!).getTime());

/** An instant as the spec's dd.MM.yyyy in the area's time zone; the open end (2070) shows as empty. */
export function formatDate(instant: string | null | undefined, timeZone: string): string {
  if (!valid(instant) || new Date(instant).getUTCFullYear() >= 2070) return '';
  const get = parts(instant, timeZone, false);
  return `${get('day')}.${get('month')}.${get('year')}`;
}

/** An instant as dd.MM.yyyy HH:mm in the area's time zone. */
export function formatDateTime(instant: string | null | undefined, timeZone: string): string {
  if (!valid(instant)) return '';
  const get = parts(instant, timeZone, true);
  return `${get('day')}.${get('month')}.${get('year')} ${get('hour')}:${get('minute')}`;
}

/** A calendar day 'YYYY-MM-DD' (a public holiday, an operating day) as dd.MM.yyyy; anything else as given. */
export function formatDay(day: string | null | undefined): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day ?? '');
  return match ? `${match[3]}.${match[2]}.${match[1]}` : (day ?? '');
}

/*
 * Numbers, amounts and energies (issue 18 item 2). The spec's rule "numbers rounded to 4 decimals, 2
 * for percentages" (calls.md §9) reads as at most 4 decimals with trailing zeros dropped; amounts are
 * shown as an invoice shows them, in the currency's minor unit (2 decimals for NOK, SEK, DKK, CHF and
 * EUR). Separators follow the user's language. Rounding happens here only, never on figures summed.
 */

/** The Intl locale of each language of the app (LANGUAGES): its decimal and grouping separators. */
const LOCALES: Readonly<Record<string, string>> = {
  en: 'en-GB',
  da: 'da-DK',
  nb: 'nb-NO',
  sv: 'sv-SE',
  fi: 'fi-FI',
  es: 'es-ES',
};

/** The Intl locale of a language ('nb' -> 'nb-NO'); an unknown language reads as English. */
export const numberLocale = (language: string | null | undefined): string =>
  LOCALES[(language ?? 'en').slice(0, 2)] ?? LOCALES.en!;

const formatters = new Map<string, Intl.NumberFormat>();
const formatter = (language: string, options: Intl.NumberFormatOptions): Intl.NumberFormat => {
  const locale = numberLocale(language);
  const key = `${locale}|${JSON.stringify(options)}`;
  let found = formatters.get(key);
  if (!found) {
    found = new Intl.NumberFormat(locale, options);
    formatters.set(key, found);
  }
  return found;
};

type Value = number | null | undefined;
const missing = (value: Value): value is null | undefined =>
  value === null || value === undefined || !Number.isFinite(value);
/** -0 after rounding (a tiny negative remainder) shows as 0, not "-0". */
const unsigned = (value: number, decimals: number): number => (Math.abs(value) < 0.5 * 10 ** -decimals ? 0 : value);

/** The energy units of the data: settlement figures are kWh, market series may be MWh. */
export type EnergyUnit = 'kWh' | 'MWh';

/** A number with at most 4 decimals, trailing zeros dropped: 1234.5 -> "1,234.5" (en), "1 234,5" (nb). */
export function formatNumber(value: Value, language: string): string {
  if (missing(value)) return '';
  return formatter(language, { maximumFractionDigits: 4 }).format(unsigned(value, 4));
}

/** A percentage (25 means 25 %) with 2 decimals: "25.00%" (en), "25,00 %" (nb). */
export function formatPercent(value: Value, language: string): string {
  if (missing(value)) return '';
  return formatter(language, { style: 'percent', minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(
    unsigned(value, 2) / 100,
  );
}

/** The minor unit of a currency (2 for cents and øre). */
export const minorUnitDigits = (currency: string): number =>
  formatter('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;

/**
 * An amount in its currency's minor unit without the code, for a column whose header names the
 * currency: 1234.5 -> "1,234.50" (en), "1 234,50" (nb).
 */
export function formatMoney(value: Value, currency: string, language: string): string {
  if (missing(value)) return '';
  const digits = minorUnitDigits(currency);
  return formatter(language, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(
    unsigned(value, digits),
  );
}

/** An amount with its currency, as an invoice shows it: "NOK 1,234.50" (en), "1 234,50 NOK" (nb). */
export function formatAmount(value: Value, currency: string, language: string): string {
  if (missing(value)) return '';
  const digits = minorUnitDigits(currency);
  return formatter(language, { style: 'currency', currency, currencyDisplay: 'code' }).format(unsigned(value, digits));
}

/** An energy with its unit: "1,234.5 kWh". */
export function formatEnergy(value: Value, unit: EnergyUnit, language: string): string {
  return missing(value) ? '' : `${formatNumber(value, language)} ${unit}`;
}

/** The unit of a price per MWh: "NOK/MWh". */
export const priceUnit = (currency: string): string => `${currency}/MWh`;

/** A price per MWh with its currency: "45.12 NOK/MWh" (at most 4 decimals, as prices are quoted). */
export function formatPrice(value: Value, currency: string, language: string): string {
  return missing(value) ? '' : `${formatNumber(value, language)} ${priceUnit(currency)}`;
}

/** A file size as the spec gives it (calls.md §9): kB, bytes / 1000 with two decimals, "1,000.00" (en). */
export function formatKilobytes(bytes: Value, language: string): string {
  if (missing(bytes)) return '';
  return formatter(language, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(bytes / 1000);
}

/** A column header with its unit: "Energy (kWh)", "Due (NOK)". */
export const withUnit = (label: string, unit: string): string => `${label} (${unit})`;

/*
 * Hours on the days the clock changes (issue 18 item 5): 25 October has two hours the clock shows as
 * 02:00, 29 March none. On such a day every hour carries its UTC offset, so the two 02:00 rows read
 * "02:00 +02:00" and "02:00 +01:00"; on other days the offset is left out.
 */

/** The zone's UTC offset at an instant as "+02:00". */
export function utcOffset(instant: string | Date, timeZone: string): string {
  const name =
    dateFormatter(timeZone, 'offset')
      .formatToParts(typeof instant === 'string' ? new Date(instant) : instant)
      .find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  // "GMT" alone is UTC itself; otherwise "GMT+02:00".
  return name === 'GMT' ? '+00:00' : name.replace('GMT', '');
}

/** Days known to have (or not) a clock change, per zone and local day. */
const changeDays = new Map<string, boolean>();

/** Whether the zone's clock changes on the local day the instant falls on. */
export function clockChangesOn(instant: string, timeZone: string): boolean {
  const get = parts(instant, timeZone, false);
  const day = `${get('year')}-${get('month')}-${get('day')}`;
  const key = `${timeZone}|${day}`;
  const known = changeDays.get(key);
  if (known !== undefined) return known;
  const start = dayStartInZone(day, timeZone);
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const next = new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
  const end = new Date(Date.parse(dayStartInZone(next, timeZone)) - 1);
  const changes = utcOffset(start, timeZone) !== utcOffset(end, timeZone);
  changeDays.set(key, changes);
  return changes;
}

const hourMinute = (instant: string, timeZone: string): string => {
  const get = parts(instant, timeZone, true);
  return `${get('hour')}:${get('minute')}`;
};

/** An hour's start as HH:mm in the area's zone, with its UTC offset on a day the clock changes. */
export function formatHour(instant: string | null | undefined, timeZone: string): string {
  if (!valid(instant)) return '';
  const time = hourMinute(instant, timeZone);
  return clockChangesOn(instant, timeZone) ? `${time} ${utcOffset(instant, timeZone)}` : time;
}

/** An hour's start as dd.MM.yyyy HH:mm in the area's zone, with its UTC offset on a day the clock changes. */
export function formatDateHour(instant: string | null | undefined, timeZone: string): string {
  if (!valid(instant)) return '';
  return `${formatDate(instant, timeZone)} ${formatHour(instant, timeZone)}`;
}
