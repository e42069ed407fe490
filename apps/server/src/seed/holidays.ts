import type { CountryAreaName } from '@railwatt/contracts';

/** Easter Sunday of a Gregorian year (anonymous Gregorian algorithm), as 'YYYY-MM-DD'. */
export function easterSunday(year: number): string {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return iso(year, month, day);
}

const iso = (year: number, month: number, day: number) =>
  `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;

const addDays = (date: string, days: number): string => {
  const t = new Date(`${date}T00:00:00Z`);
  t.setUTCDate(t.getUTCDate() + days);
  return t.toISOString().slice(0, 10);
};

/** The Saturday in [from, from + 6] (Swedish and Finnish midsummer and All Saints' Day). */
const saturdayFrom = (year: number, month: number, day: number): string => {
  const start = iso(year, month, day);
  const weekday = new Date(`${start}T00:00:00Z`).getUTCDay();
  return addDays(start, (6 - weekday + 7) % 7);
};

type Rule = readonly [name: string, date: (year: number, easter: string) => string];
const fixed =
  (month: number, day: number) =>
  (year: number): string =>
    iso(year, month, day);
const easter =
  (offset: number) =>
  (_year: number, e: string): string =>
    addDays(e, offset);

/** The public holidays (days off work nationwide) of each country, in its own language. */
const RULES: Record<CountryAreaName, readonly Rule[]> = {
  norway: [
    ['Første nyttårsdag', fixed(1, 1)],
    ['Skjærtorsdag', easter(-3)],
    ['Langfredag', easter(-2)],
    ['Første påskedag', easter(0)],
    ['Andre påskedag', easter(1)],
    ['Arbeidernes dag', fixed(5, 1)],
    ['Grunnlovsdag', fixed(5, 17)],
    ['Kristi himmelfartsdag', easter(39)],
    ['Første pinsedag', easter(49)],
    ['Andre pinsedag', easter(50)],
    ['Første juledag', fixed(12, 25)],
    ['Andre juledag', fixed(12, 26)],
  ],
  sweden: [
    ['Nyårsdagen', fixed(1, 1)],
    ['Trettondedag jul', fixed(1, 6)],
    ['Långfredagen', easter(-2)],
    ['Påskdagen', easter(0)],
    ['Annandag påsk', easter(1)],
    ['Första maj', fixed(5, 1)],
    ['Kristi himmelsfärdsdag', easter(39)],
    ['Pingstdagen', easter(49)],
    ['Sveriges nationaldag', fixed(6, 6)],
    ['Midsommardagen', (y) => saturdayFrom(y, 6, 20)],
    ['Alla helgons dag', (y) => saturdayFrom(y, 10, 31)],
    ['Juldagen', fixed(12, 25)],
    ['Annandag jul', fixed(12, 26)],
  ],
  denmark: [
    ['Nytårsdag', fixed(1, 1)],
    ['Skærtorsdag', easter(-3)],
    ['Langfredag', easter(-2)],
    ['Påskedag', easter(0)],
    ['2. påskedag', easter(1)],
    ['Kristi himmelfartsdag', easter(39)],
    ['Pinsedag', easter(49)],
    ['2. pinsedag', easter(50)],
    ['Grundlovsdag', fixed(6, 5)],
    ['Juledag', fixed(12, 25)],
    ['2. juledag', fixed(12, 26)],
  ],
  switzerland: [
    ['Neujahr', fixed(1, 1)],
    ['Berchtoldstag', fixed(1, 2)],
    ['Karfreitag', easter(-2)],
    ['Ostermontag', easter(1)],
    ['Auffahrt', easter(39)],
    ['Pfingstmontag', easter(50)],
    ['Bundesfeiertag', fixed(8, 1)],
    ['Weihnachtstag', fixed(12, 25)],
    ['Stephanstag', fixed(12, 26)],
  ],
  belgium: [
    ['Nieuwjaar', fixed(1, 1)],
    ['Paasmaandag', easter(1)],
    ['Dag van de Arbeid', fixed(5, 1)],
    ['Onze-Lieve-Heer-Hemelvaart', easter(39)],
    ['Pinkstermaandag', easter(50)],
    ['Nationale feestdag', fixed(7, 21)],
    ['Onze-Lieve-Vrouw-Hemelvaart', fixed(8, 15)],
    ['Allerheiligen', fixed(11, 1)],
    ['Wapenstilstand', fixed(11, 11)],
    ['Kerstmis', fixed(12, 25)],
  ],
  spain: [
    ['Año Nuevo', fixed(1, 1)],
    ['Epifanía del Señor', fixed(1, 6)],
    ['Viernes Santo', easter(-2)],
    ['Fiesta del Trabajo', fixed(5, 1)],
    ['Asunción de la Virgen', fixed(8, 15)],
    ['Fiesta Nacional de España', fixed(10, 12)],
    ['Todos los Santos', fixed(11, 1)],
    ['Día de la Constitución', fixed(12, 6)],
    ['Inmaculada Concepción', fixed(12, 8)],
    ['Navidad', fixed(12, 25)],
  ],
  portugal: [
    ['Ano Novo', fixed(1, 1)],
    ['Sexta-feira Santa', easter(-2)],
    ['Páscoa', easter(0)],
    ['Dia da Liberdade', fixed(4, 25)],
    ['Dia do Trabalhador', fixed(5, 1)],
    ['Corpo de Deus', easter(60)],
    ['Dia de Portugal', fixed(6, 10)],
    ['Assunção de Nossa Senhora', fixed(8, 15)],
    ['Implantação da República', fixed(10, 5)],
    ['Dia de Todos os Santos', fixed(11, 1)],
    ['Restauração da Independência', fixed(12, 1)],
    ['Imaculada Conceição', fixed(12, 8)],
    ['Natal', fixed(12, 25)],
  ],
  netherlands: [
    ['Nieuwjaarsdag', fixed(1, 1)],
    ['Goede Vrijdag', easter(-2)],
    ['Eerste Paasdag', easter(0)],
    ['Tweede Paasdag', easter(1)],
    // King's Day moves to the 26th when the 27th is a Sunday.
    ['Koningsdag', (y) => (new Date(Date.UTC(y, 3, 27)).getUTCDay() === 0 ? iso(y, 4, 26) : iso(y, 4, 27))],
    ['Hemelvaartsdag', easter(39)],
    ['Eerste Pinksterdag', easter(49)],
    ['Tweede Pinksterdag', easter(50)],
    ['Eerste Kerstdag', fixed(12, 25)],
    ['Tweede Kerstdag', fixed(12, 26)],
  ],
  finland: [
    ['Uudenvuodenpäivä', fixed(1, 1)],
    ['Loppiainen', fixed(1, 6)],
    ['Pitkäperjantai', easter(-2)],
    ['Pääsiäispäivä', easter(0)],
    ['Toinen pääsiäispäivä', easter(1)],
    ['Vappu', fixed(5, 1)],
    ['Helatorstai', easter(39)],
    ['Helluntaipäivä', easter(49)],
    ['Juhannuspäivä', (y) => saturdayFrom(y, 6, 20)],
    ['Pyhäinpäivä', (y) => saturdayFrom(y, 10, 31)],
    ['Itsenäisyyspäivä', fixed(12, 6)],
    ['Joulupäivä', fixed(12, 25)],
    ['Tapaninpäivä', fixed(12, 26)],
  ],
};

/** A country's public holidays of a year, in date order. */
export function publicHolidays(country: CountryAreaName, year: number): { name: string; date: string }[] {
  const e = easterSunday(year);
  return RULES[country]
    .map(([name, date]) => ({ name, date: date(year, e) }))
    .sort((a, b) => a.date.localeCompare(b.date));
}
