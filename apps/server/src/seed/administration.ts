import { COUNTRY_AREA_NAMES, type CountryAreaName } from '@railwatt/contracts';
import type { Database } from '../db/client.js';
import { sql } from 'drizzle-orm';
import { rows } from '../modules/domain/sql.js';
import { CountryRows, insertCountryRows, seedCountries, seedUuid } from './entity-rows.js';
import { SEED_COUNTRIES } from './fleet.js';
import { publicHolidays } from './holidays.js';
import { seedGeography } from './infrastructure.js';

/**
 * Demo administration kinds of every country area, with plausible values: traffic
 * category types and categories, train profiles (consumption factors in kWh per gross tonne-km),
 * price categories with their time intervals, public holidays of this year and the next, grid and
 * energy fee types (per MWh, in the country's currency), electricity tax and VAT categories with
 * the country's rates, and traction-energy contracts (addContracts) with the infrastructure manager
 * as supplier, charging every grid and energy fee type once. Depends on the fleet's organisations and the price areas.
 */

interface CountryValues {
  currency: string;
  /** Per MWh: grid energy fee, grid loss fee, and (16.7 Hz countries) the converter-station fee. */
  gridFees: { energy: number; loss: number; conversion?: number };
  /** Per MWh: balancing cost and administration fee. */
  energyFees: { balancing: number; administration: number };
  taxes: readonly { name: string; rate: number; description: string }[];
  vat: { name: string; percentage: number };
}

const VALUES: Record<CountryAreaName, CountryValues> = {
  norway: {
    currency: 'NOK',
    gridFees: { energy: 45, loss: 28, conversion: 36 },
    energyFees: { balancing: 8.5, administration: 12 },
    taxes: [
      { name: 'Elavgift, redusert sats (bane)', rate: 5.46, description: 'NOK per MWh, electric rail traction' },
      { name: 'Elavgift, ordinær sats', rate: 167.3, description: 'NOK per MWh, other consumption' },
    ],
    vat: { name: 'Merverdiavgift 25 %', percentage: 25 },
  },
  sweden: {
    currency: 'SEK',
    gridFees: { energy: 82, loss: 31, conversion: 41 },
    energyFees: { balancing: 9.2, administration: 10 },
    taxes: [
      { name: 'Energiskatt, spårbunden trafik', rate: 5, description: 'SEK per MWh, rail traction' },
      { name: 'Energiskatt, normal nivå', rate: 439, description: 'SEK per MWh, other consumption' },
    ],
    vat: { name: 'Mervärdesskatt 25 %', percentage: 25 },
  },
  denmark: {
    currency: 'DKK',
    gridFees: { energy: 61, loss: 22 },
    energyFees: { balancing: 7.4, administration: 9 },
    taxes: [{ name: 'Elafgift', rate: 8, description: 'DKK per MWh' }],
    vat: { name: 'Moms 25 %', percentage: 25 },
  },
  switzerland: {
    currency: 'CHF',
    gridFees: { energy: 31, loss: 8, conversion: 25 },
    energyFees: { balancing: 2.8, administration: 4 },
    taxes: [{ name: 'Netzzuschlag', rate: 23, description: 'CHF per MWh, federal grid surcharge' }],
    vat: { name: 'Mehrwertsteuer 8,1 %', percentage: 8.1 },
  },
  belgium: {
    currency: 'EUR',
    gridFees: { energy: 12.5, loss: 6 },
    energyFees: { balancing: 2.6, administration: 3 },
    taxes: [{ name: 'Bijzondere accijns', rate: 1.92, description: 'EUR per MWh, special excise duty' }],
    vat: { name: 'BTW 21 %', percentage: 21 },
  },
  spain: {
    currency: 'EUR',
    gridFees: { energy: 10.4, loss: 5.2 },
    energyFees: { balancing: 2.2, administration: 3 },
    taxes: [
      {
        name: 'Impuesto especial sobre la electricidad',
        rate: 5.11,
        description: 'Per cent of the energy and grid cost',
      },
    ],
    vat: { name: 'IVA 21 %', percentage: 21 },
  },
  portugal: {
    currency: 'EUR',
    gridFees: { energy: 9.1, loss: 4.4 },
    energyFees: { balancing: 2.1, administration: 3 },
    taxes: [{ name: 'Imposto Especial de Consumo', rate: 1, description: 'EUR per MWh' }],
    vat: { name: 'IVA 23 %', percentage: 23 },
  },
  netherlands: {
    currency: 'EUR',
    gridFees: { energy: 15.2, loss: 7 },
    energyFees: { balancing: 2.9, administration: 3.5 },
    taxes: [{ name: 'Energiebelasting, schijf 4', rate: 0.65, description: 'EUR per MWh above 10 GWh a year' }],
    vat: { name: 'BTW 21 %', percentage: 21 },
  },
  finland: {
    currency: 'EUR',
    gridFees: { energy: 8.3, loss: 4.8 },
    energyFees: { balancing: 2.4, administration: 3 },
    taxes: [{ name: 'Sähkövero, luokka I', rate: 22.4, description: 'EUR per MWh' }],
    vat: { name: 'Arvonlisävero 25,5 %', percentage: 25.5 },
  },
};

const TRAFFIC_CATEGORIES = [
  { key: 'long', type: 'passenger', name: 'Passenger, long distance', factor: 0.03 },
  { key: 'regional', type: 'passenger', name: 'Passenger, regional', factor: 0.038 },
  { key: 'suburban', type: 'passenger', name: 'Passenger, suburban', factor: 0.045 },
  { key: 'intermodal', type: 'freight', name: 'Freight, intermodal', factor: 0.018 },
  { key: 'bulk', type: 'freight', name: 'Freight, bulk', factor: 0.015 },
  { key: 'service', type: 'other', name: 'Service and empty runs', factor: 0.04 },
] as const;

const TRAIN_PROFILES = [
  { name: 'High-speed passenger', factor: 0.032 },
  { name: 'Regional passenger', factor: 0.038 },
  { name: 'Suburban EMU', factor: 0.045 },
  { name: 'Intermodal freight', factor: 0.018 },
  { name: 'Heavy freight', factor: 0.014 },
  { name: 'Light engine', factor: 0.06 },
] as const;

/** Holidays of these years are seeded (this year and the next, when the seeder first runs). */
export const holidayYears = (now = new Date()): number[] => [now.getUTCFullYear(), now.getUTCFullYear() + 1];

/** The rows of one country's administration kinds (pure; the seeder inserts them). */
export function buildAdministration(country: CountryAreaName, years = holidayYears()): CountryRows {
  const data = new CountryRows(country);
  const k = (key: string) => data.key(key);
  const v = VALUES[country];

  for (const [key, name] of [
    ['passenger', 'Passenger traffic'],
    ['freight', 'Freight traffic'],
    ['other', 'Other traffic'],
  ] as const)
    data.add(k(`trafficcategorytype:${key}`), 'trafficcategorytype', name, { description: null });
  for (const c of TRAFFIC_CATEGORIES)
    data.add(k(`trafficcategory:${c.key}`), 'trafficcategory', c.name, {
      description: null,
      trafficCategoryTypeRef: k(`trafficcategorytype:${c.type}`),
      consumptionFactor: c.factor,
    });
  for (const p of TRAIN_PROFILES)
    data.add(k(`trainprofile:${p.name}`), 'trainprofile', p.name, { description: null, consumptionFactor: p.factor });

  // Price categories: weekday peak and off-peak; weekends and public holidays (day 8) all day.
  const categories = [
    { key: 'peak', name: 'Peak', intervals: [{ days: [1, 2, 3, 4, 5], from: '06:00', to: '22:00' }] },
    {
      key: 'offpeak',
      name: 'Off-peak',
      intervals: [
        { days: [1, 2, 3, 4, 5], from: '00:00', to: '06:00' },
        { days: [1, 2, 3, 4, 5], from: '22:00', to: '24:00' },
      ],
    },
    {
      key: 'weekend',
      name: 'Weekend and public holiday',
      intervals: [{ days: [6, 7, 8], from: '00:00', to: '24:00' }],
    },
  ];
  for (const c of categories) {
    data.add(k(`pricecategory:${c.key}`), 'pricecategory', c.name, { description: null });
    c.intervals.forEach((i, n) =>
      data.add(
        k(`pricecategorytimeinterval:${c.key}:${n}`),
        'pricecategorytimeinterval',
        `${c.name} ${i.from}-${i.to}`,
        {
          priceCategoryRef: k(`pricecategory:${c.key}`),
          daysOfWeek: i.days,
          fromTime: i.from,
          toTime: i.to,
        },
      ),
    );
  }

  for (const year of years)
    for (const h of publicHolidays(country, year))
      data.add(k(`publicholiday:${h.date}:${h.name}`), 'publicholiday', `${h.name} ${year}`, {
        date: h.date,
        description: null,
      });

  const fee = (key: string, type: 'gridfeetype' | 'energyfeetype', name: string, price: number, description: string) =>
    data.add(k(`${type}:${key}`), type, name, { description, price, currency: v.currency });
  fee('energy', 'gridfeetype', 'Grid energy fee', v.gridFees.energy, `${v.currency} per MWh taken from the grid`);
  fee('loss', 'gridfeetype', 'Grid loss fee', v.gridFees.loss, `${v.currency} per MWh, losses in the traction grid`);
  if (v.gridFees.conversion !== undefined)
    fee(
      'conversion',
      'gridfeetype',
      'Converter station fee',
      v.gridFees.conversion,
      `${v.currency} per MWh, 50 Hz to 16.7 Hz`,
    );
  fee('balancing', 'energyfeetype', 'Balancing cost', v.energyFees.balancing, `${v.currency} per MWh`);
  fee(
    'administration',
    'energyfeetype',
    'Energy administration fee',
    v.energyFees.administration,
    `${v.currency} per MWh`,
  );

  for (const [i, t] of v.taxes.entries())
    data.add(k(`taxcategory:${i}`), 'taxcategory', t.name, { description: t.description, rate: t.rate });
  data.add(k('vatcategory:standard'), 'vatcategory', v.vat.name, { description: null, percentage: v.vat.percentage });

  addContracts(data, country);
  return data;
}

/**
 * The traction-energy contracts, supplied by the infrastructure manager and charging every grid and
 * energy fee type of the country once, the rail tax and the standard VAT: one for every organisation
 * that pays for energy (railway undertakings; vehicle keepers pay for energy outside train runs) in
 * every price area of the country (issue 18 item 5: a line without a contract valid in its price area
 * bills no fees, tax or VAT). A railway undertaking's contract in the first price area keeps its
 * first key and name (the contract the demo had before).
 */
function addContracts(data: CountryRows, country: CountryAreaName): void {
  const k = (key: string) => data.key(key);
  const seed = SEED_COUNTRIES.find((c) => c.kind === country)!;
  const priceAreas = seedGeography()[country].priceAreas.map((pa) => pa.name);
  const gridFeeTypeRefs = data.segments.filter((s) => s.type === 'gridfeetype').map((s) => s.entityUuid);
  const energyFeeTypeRefs = data.segments.filter((s) => s.type === 'energyfeetype').map((s) => s.entityUuid);
  for (const org of [...seed.rus, ...seed.keepers])
    priceAreas.forEach((priceArea, i) => {
      const first = i === 0 && seed.rus.includes(org);
      data.add(
        k(first ? `contract:${org.key}` : `contract:${org.key}:${priceArea}`),
        'contract',
        first ? `Traction energy ${org.name}` : `Traction energy ${org.name}, ${priceArea}`,
        {
          organisationRef: k(`org:${org.key}`),
          supplierRef: k(`org:${seed.im.key}`),
          priceAreaRef: k(`pricearea:${priceArea}`),
          description: `Traction energy supplied by ${seed.im.name} in ${priceArea}`,
          gridFeeTypeRefs,
          energyFeeTypeRefs,
          // The first tax category is the rail traction rate where a country has one.
          taxCategoryRef: k('taxcategory:0'),
          vatCategoryRef: k('vatcategory:standard'),
        },
      );
    });
}

/**
 * The contracts an area seeded before every paying organisation had one in every price area lacks
 * (issue 18 item 5): inserted beside the stored ones, each once (the entity uuids are the keys).
 */
export async function seedMissingContracts(
  database: Database,
  countries: readonly CountryAreaName[] = COUNTRY_AREA_NAMES,
): Promise<number> {
  let inserted = 0;
  await database.db.transaction(async (tx) => {
    for (const country of countries) {
      const built = buildAdministration(country, []);
      const contracts = built.segments.filter((s) => s.type === 'contract');
      const uuids = contracts.map((c) => c.entityUuid);
      const present = new Set(
        (
          await rows<{ uuid: string }>(
            tx,
            sql`SELECT uuid::text AS uuid FROM entity WHERE uuid = ANY(${sql.param(uuids)}::uuid[])`,
          )
        ).map((r) => r.uuid),
      );
      // Only areas that have the administration kinds (the fee types the contracts name).
      if (!present.has(seedUuid(`${country}:contract:${SEED_COUNTRIES.find((c) => c.kind === country)!.rus[0]!.key}`)))
        continue;
      const missing = new CountryRows(country);
      for (const c of contracts.filter((c) => !present.has(c.entityUuid)))
        missing.add(c.entityUuid, 'contract', c.name, c.attributes, { start: c.start, end: c.end });
      if (missing.entities.length === 0) continue;
      await insertCountryRows(tx, missing);
      inserted += missing.entities.length;
    }
  });
  return inserted;
}

/** Seeds the administration kinds of the given countries (default all); a country that has them is skipped. */
export function seedAdministrationData(
  database: Database,
  countries: readonly CountryAreaName[] = COUNTRY_AREA_NAMES,
): Promise<number> {
  return seedCountries(database, countries, 'vatcategory:standard', (country) => buildAdministration(country));
}

/** Seeder entry (seed/index.ts). */
export async function seedAdministration(database: Database): Promise<void> {
  await seedAdministrationData(database);
  await seedMissingContracts(database);
}
