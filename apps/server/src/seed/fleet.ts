import {
  buildConsumptionPointName,
  buildCpid,
  COUNTRY_AREA_NAMES,
  uicCheckDigit,
  type CountryAreaName,
} from '@railwatt/contracts';
import type { Database } from '../db/client.js';
import { linkUserToOrganisations } from '../modules/organisation/repository.js';
import { areaUuid } from './areas.js';
import { CountryRows, FOREVER, seedCountries, seedUuid } from './entity-rows.js';

export { seedUuid } from './entity-rows.js';

/**
 * Demo fleet for every country area: organisations (railway undertakings, vehicle keepers, the
 * infrastructure manager, two exchange admins), motor types, traction unit types, traction units
 * with 12-digit EVNs (UIC check digit) and their consumption points (CPID `NVR_VKM_EVN_EMSID`),
 * some with an owner change from 2024-01-01 (two segments). The areas are seed/infrastructure.ts's.
 * Bulk inserted with a few unnest statements; deterministic uuids make it idempotent (a tenant that
 * already has the data is skipped).
 */

interface Org {
  key: string;
  name: string;
  orgId: string;
  vkm: string;
  types: string[];
}

interface Country {
  kind: CountryAreaName;
  nvr: string;
  uic: string;
  domain: string;
  im: Org;
  rus: Org[];
  keepers: Org[];
  unitTypes: {
    name: string;
    series: string;
    motor: 'electric' | 'hybrid diesel' | 'hybrid battery';
    maxSpeed: number;
    maxPower: number;
    emu: boolean;
  }[];
}

const ru = (key: string, name: string, orgId: string, vkm: string): Org => ({
  key,
  name,
  orgId,
  vkm,
  types: ['RAILWAY_UNDERTAKING'],
});
const vk = (key: string, name: string, orgId: string, vkm: string): Org => ({
  key,
  name,
  orgId,
  vkm,
  types: ['VEHICLE_KEEPER'],
});
const im = (key: string, name: string, orgId: string): Org => ({
  key,
  name,
  orgId,
  vkm: key.toUpperCase(),
  types: ['INFRASTRUCTURE_MANAGER', 'ENERGY_USE_SETTLEMENT_RESPONSIBLE'],
});

const COUNTRIES: Country[] = [
  {
    kind: 'norway',
    nvr: 'NO',
    uic: '76',
    domain: 'no',
    im: im('banenor', 'Bane NOR SF', '917082308'),
    rus: [
      ru('vy', 'Vy Tog AS', '984661185', 'NSB'),
      ru('cargonet', 'CargoNet AS', '984234341', 'CN'),
      ru('flytoget', 'Flytoget AS', '965694526', 'FLY'),
      ru('goahead', 'Go-Ahead Nordic AS', '919962011', 'GAN'),
      ru('sjnorge', 'SJ Norge AS', '922290091', 'SJN'),
    ],
    keepers: [
      vk('norsketog', 'Norske tog AS', '916914897', 'NT'),
      vk('railcare', 'Railcare Norge AS', '998155731', 'RCN'),
    ],
    unitTypes: [
      { name: 'El 18', series: '018', motor: 'electric', maxSpeed: 200, maxPower: 5.4, emu: false },
      { name: 'Type 74', series: '074', motor: 'electric', maxSpeed: 200, maxPower: 4.5, emu: true },
      { name: 'Type 75', series: '075', motor: 'electric', maxSpeed: 200, maxPower: 4.5, emu: true },
      { name: 'Di 4 hybrid', series: '004', motor: 'hybrid diesel', maxSpeed: 140, maxPower: 2.4, emu: false },
    ],
  },
  {
    kind: 'sweden',
    nvr: 'SE',
    uic: '74',
    domain: 'se',
    im: im('trafikverket', 'Trafikverket', '2021006545'),
    rus: [
      ru('sj', 'SJ AB', '5564120869', 'SJ'),
      ru('greencargo', 'Green Cargo AB', '5565587298', 'GC'),
      ru('mtrx', 'MTR Express (Sweden) AB', '5568776872', 'MTRX'),
      ru('hectorrail', 'Hector Rail AB', '5565931979', 'HR'),
      ru('tagab', 'Tågåkeriet i Bergslagen AB', '5565766548', 'TAGAB'),
    ],
    keepers: [vk('transitio', 'Transitio AB', '5567271813', 'TRAN'), vk('norrtag', 'Norrtåg AB', '5567950412', 'NRT')],
    unitTypes: [
      { name: 'Rc6', series: '106', motor: 'electric', maxSpeed: 160, maxPower: 3.6, emu: false },
      { name: 'X2000', series: '200', motor: 'electric', maxSpeed: 200, maxPower: 3.3, emu: true },
      { name: 'X60', series: '060', motor: 'electric', maxSpeed: 160, maxPower: 2.1, emu: true },
      { name: 'Traxx AC3', series: '187', motor: 'hybrid diesel', maxSpeed: 160, maxPower: 5.6, emu: false },
    ],
  },
  {
    kind: 'denmark',
    nvr: 'DK',
    uic: '86',
    domain: 'dk',
    im: im('banedanmark', 'Banedanmark', '18632276'),
    rus: [
      ru('dsb', 'DSB', '25050053', 'DSB'),
      ru('dbcs', 'DB Cargo Scandinavia A/S', '27916988', 'DBCSC'),
      ru('arriva', 'Arriva Danmark A/S', '10069920', 'ARR'),
      ru('lokaltog', 'Lokaltog A/S', '36468521', 'LT'),
    ],
    keepers: [
      vk('dsbvedl', 'DSB Vedligehold A/S', '35384642', 'DSBV'),
      vk('akiemdk', 'Akiem Danmark ApS', '41216689', 'AKDK'),
    ],
    unitTypes: [
      { name: 'ME', series: '015', motor: 'hybrid diesel', maxSpeed: 140, maxPower: 2.4, emu: false },
      { name: 'EB', series: '030', motor: 'electric', maxSpeed: 200, maxPower: 6.4, emu: false },
      { name: 'ET Øresundstog', series: '040', motor: 'electric', maxSpeed: 180, maxPower: 2.3, emu: true },
    ],
  },
  {
    kind: 'switzerland',
    nvr: 'CH',
    uic: '85',
    domain: 'ch',
    im: im('sbbinfra', 'SBB Infrastruktur', 'CHE-102.909.703'),
    rus: [
      ru('sbb', 'SBB AG', 'CHE-102.909.704', 'SBB'),
      ru('bls', 'BLS AG', 'CHE-100.043.497', 'BLS'),
      ru('rhb', 'Rhätische Bahn AG', 'CHE-101.131.525', 'RHB'),
      ru('sbbcargo', 'SBB Cargo AG', 'CHE-105.910.574', 'SBBC'),
    ],
    keepers: [
      vk('alpha', 'Alpha Trains Schweiz AG', 'CHE-113.456.911', 'ATS'),
      vk('railcarech', 'Railcare Schweiz AG', 'CHE-114.221.310', 'RCS'),
    ],
    unitTypes: [
      { name: 'Re 460', series: '460', motor: 'electric', maxSpeed: 230, maxPower: 6.1, emu: false },
      { name: 'RABe 511', series: '511', motor: 'electric', maxSpeed: 160, maxPower: 3.0, emu: true },
      { name: 'Aem 940', series: '940', motor: 'hybrid diesel', maxSpeed: 120, maxPower: 2.8, emu: false },
    ],
  },
  {
    kind: 'belgium',
    nvr: 'BE',
    uic: '88',
    domain: 'be',
    im: im('infrabel', 'Infrabel', 'BE0869763267'),
    rus: [
      ru('sncb', 'SNCB/NMBS', 'BE0203430576', 'SNCB'),
      ru('lineas', 'Lineas SA', 'BE0822966806', 'LNS'),
      ru('crossrail', 'Crossrail Benelux NV', 'BE0871960612', 'XRB'),
    ],
    keepers: [
      vk('akiembe', 'Akiem Belgium SA', 'BE0713584710', 'AKBE'),
      vk('railpoolbe', 'Railpool Belgium', 'BE0806177402', 'RPB'),
    ],
    unitTypes: [
      { name: 'HLE 18', series: '018', motor: 'electric', maxSpeed: 200, maxPower: 5.0, emu: false },
      { name: 'AM 08 Desiro', series: '608', motor: 'electric', maxSpeed: 160, maxPower: 2.0, emu: true },
      { name: 'HLD 77', series: '077', motor: 'hybrid diesel', maxSpeed: 120, maxPower: 1.6, emu: false },
    ],
  },
  {
    kind: 'spain',
    nvr: 'ES',
    uic: '71',
    domain: 'es',
    im: im('adif', 'Adif', 'Q2801660H'),
    rus: [
      ru('renfev', 'Renfe Viajeros S.M.E., S.A.', 'A86868189', 'RENFE'),
      ru('renfem', 'Renfe Mercancías S.M.E., S.A.', 'A86868064', 'RENFM'),
      ru('ouigo', 'Ouigo España S.A.U.', 'A88211150', 'OUIGO'),
      ru('iryo', 'Iryo (ILSA)', 'A87939501', 'ILSA'),
    ],
    keepers: [
      vk('alquiler', 'Alquiler de Trenes AIE', 'V85916386', 'ALTR'),
      vk('captrain', 'Captrain España', 'B84476414', 'CAPE'),
    ],
    unitTypes: [
      { name: 'S-252', series: '252', motor: 'electric', maxSpeed: 220, maxPower: 5.6, emu: false },
      { name: 'S-103', series: '103', motor: 'electric', maxSpeed: 350, maxPower: 8.8, emu: true },
      { name: 'S-730', series: '730', motor: 'hybrid diesel', maxSpeed: 250, maxPower: 4.8, emu: true },
    ],
  },
  {
    kind: 'portugal',
    nvr: 'PT',
    uic: '94',
    domain: 'pt',
    im: im('ip', 'Infraestruturas de Portugal', '503933813'),
    rus: [
      ru('cp', 'CP - Comboios de Portugal', '500498601', 'CP'),
      ru('medway', 'Medway - Operador Ferroviário de Mercadorias', '514093994', 'MDW'),
      ru('fertagus', 'Fertagus', '503866440', 'FTG'),
    ],
    keepers: [vk('cpfrota', 'CP Frota', '500498602', 'CPF'), vk('takargo', 'Takargo Rail', '507522052', 'TKG')],
    unitTypes: [
      { name: 'CP 4700', series: '470', motor: 'electric', maxSpeed: 140, maxPower: 5.6, emu: false },
      { name: 'CP 3400', series: '340', motor: 'electric', maxSpeed: 140, maxPower: 1.8, emu: true },
      { name: 'CP 5600', series: '560', motor: 'electric', maxSpeed: 200, maxPower: 5.6, emu: false },
    ],
  },
  {
    kind: 'netherlands',
    nvr: 'NL',
    uic: '84',
    domain: 'nl',
    im: im('prorail', 'ProRail B.V.', '30124359'),
    rus: [
      ru('ns', 'NS Reizigers B.V.', '30124358', 'NS'),
      ru('dbcnl', 'DB Cargo Nederland N.V.', '30197661', 'DBCNL'),
      ru('arrivanl', 'Arriva Personenvervoer Nederland B.V.', '01076539', 'ARRNL'),
      ru('keolis', 'Keolis Nederland B.V.', '08102345', 'KEO'),
    ],
    keepers: [
      vk('nsfs', 'NS Financial Services', '30154812', 'NSFS'),
      vk('railpoolnl', 'Railpool Nederland', '60553758', 'RPNL'),
    ],
    unitTypes: [
      { name: 'ICNG', series: '320', motor: 'electric', maxSpeed: 200, maxPower: 4.5, emu: true },
      { name: 'SNG', series: '230', motor: 'electric', maxSpeed: 160, maxPower: 1.6, emu: true },
      { name: 'Class 189', series: '189', motor: 'electric', maxSpeed: 140, maxPower: 6.4, emu: false },
    ],
  },
  {
    kind: 'finland',
    nvr: 'FI',
    uic: '10',
    domain: 'fi',
    im: im('vayla', 'Väylävirasto', '1010547-1'),
    rus: [
      ru('vr', 'VR-Yhtymä Oyj', '1003521-5', 'VR'),
      ru('fenniarail', 'Fenniarail Oy', '2383547-1', 'FENR'),
      ru('operail', 'Operail Finland Oy', '2767840-4', 'OPR'),
    ],
    keepers: [
      vk('junakalusto', 'Pääkaupunkiseudun Junakalusto Oy', '2184378-0', 'JKOY'),
      vk('vrfleet', 'VR FleetCare Oy', '2801117-4', 'VRFC'),
    ],
    unitTypes: [
      { name: 'Sr3', series: '300', motor: 'electric', maxSpeed: 200, maxPower: 6.4, emu: false },
      { name: 'Sm5', series: '500', motor: 'electric', maxSpeed: 160, maxPower: 2.1, emu: true },
      { name: 'Dr19 hybrid', series: '190', motor: 'hybrid battery', maxSpeed: 160, maxPower: 2.0, emu: false },
    ],
  },
];

export interface SeedFleetOptions {
  /** Traction units per country (default 40: 360 in all). */
  unitsPerCountry?: number;
  countries?: readonly CountryAreaName[];
}

/** Builds the rows for one country (pure; the seeder and bench/fleet.ts insert them). */
export function buildCountry(country: Country, unitsPerCountry: number): CountryRows {
  const data = new CountryRows(country.kind);
  const k = (key: string) => data.key(key);
  const add = (
    uuid: string,
    type: string,
    name: string,
    attributes: Record<string, unknown>,
    start?: string,
    end?: string,
    state?: string,
  ) => data.add(uuid, type, name, attributes, { start, end, state });

  // Organisations: two exchange admins, the infrastructure manager, railway undertakings, vehicle keepers.
  const exchangeA = k('org:exchange-a');
  const exchangeB = k('org:exchange-b');
  const email = (org: string) => `energy@${org}.example.${country.domain}`;
  add(exchangeA, 'organisation', `${country.im.name} Energy Data Exchange`, {
    orgId: `${country.im.orgId}-EX`,
    organisationTypes: ['EXCHANGE_ADMIN'],
    marketFunctions: ['exchange-operator'],
    emails: email('exchange'),
    reportSettings: {},
    exportConfig: {},
    scheduledReportFirstDay: 1,
    exchangeAdminRef: null,
  });
  add(exchangeB, 'organisation', `EnergyDataHub Europe (${country.nvr})`, {
    orgId: `EDH-${country.nvr}`,
    organisationTypes: ['EXCHANGE_ADMIN', 'DCS_ADMIN'],
    marketFunctions: ['exchange-operator'],
    emails: email('edh'),
    reportSettings: {},
    exportConfig: {},
    scheduledReportFirstDay: 1,
    exchangeAdminRef: null,
  });
  const orgs = [country.im, ...country.rus, ...country.keepers];
  for (const [i, org] of orgs.entries()) {
    // The second vehicle keeper is connected to the other exchange admin (shows the exchange-admin rule).
    const admin = org === country.keepers[1] ? exchangeB : exchangeA;
    add(k(`org:${org.key}`), 'organisation', org.name, {
      orgId: org.orgId,
      organisationTypes: org.types,
      marketFunctions: org.types.includes('VEHICLE_KEEPER')
        ? ['vehicle-keeper']
        : org.types.includes('RAILWAY_UNDERTAKING')
          ? ['consumer']
          : ['settlement-area-responsible'],
      emails: `${email(org.key)};settlement@${org.key}.example.${country.domain}`,
      reportSettings: { language: 'English' },
      exportConfig: {},
      scheduledReportFirstDay: 1 + (i % 5),
      exchangeAdminRef: admin,
    });
  }

  // Motor types, traction unit types.
  for (const motor of ['electric', 'hybrid diesel', 'hybrid battery'] as const) {
    add(
      k(`motor:${motor}`),
      'motortype',
      motor === 'electric' ? 'Electric' : motor === 'hybrid diesel' ? 'Hybrid diesel' : 'Hybrid battery',
      {
        motorCategory: motor,
        disableMatchEnergy: false,
        neverAcceptZeroAccumulatedConsumption: motor === 'electric',
        maxHybridTimeWithoutConsumption: motor === 'electric' ? null : 30,
      },
    );
  }
  for (const t of country.unitTypes) {
    add(
      k(`type:${t.name}`),
      'tractionunittype',
      t.name,
      {
        maxSpeed: t.maxSpeed,
        maxPower: t.maxPower,
        generation: t.motor !== 'hybrid diesel',
        consumption: true,
        positionValidationRules: ['WITHIN_AREA'],
        replacementSearchTime: 60,
        positionInterpolationTime: 15,
        movementWithoutConsumptionTime: 30,
        movementWithoutConsumptionKm: 5,
        movementWithoutConsumptionMax: 10,
        startPositionSearchTime: 30,
        maxEnergyWithoutMovement: 50,
        legalCombinations: [],
        motorTypeRef: k(`motor:${t.motor}`),
        trainProfileRef: null,
      },
      '2015-01-01T00:00:00.000Z',
      FOREVER,
      'APPROVED_FOR_BILLING',
    );
  }

  // Traction units and consumption points.
  const owners = [...country.keepers, ...country.rus];
  for (let n = 0; n < unitsPerCountry; n++) {
    const type = country.unitTypes[n % country.unitTypes.length]!;
    const number = 1 + Math.floor(n / country.unitTypes.length);
    // 9x (type code) + UIC country + a digit (thousands of the running number) + series + number + check digit.
    const serial = `${type.emu ? '94' : '91'}${country.uic}${Math.floor(number / 1000) % 10}${type.series}${String(number % 1000).padStart(3, '0')}`;
    const evn = `${serial}${uicCheckDigit(serial)}`;
    const unit = k(`unit:${evn}`);
    const owner = owners[n % owners.length]!;
    const startYear = 2015 + (n % 8);
    const start = `${startYear}-0${1 + (n % 9)}-01T00:00:00.000Z`;
    const state = n % 23 === 22 ? 'INACTIVE' : 'ACTIVE';
    const pointCount = n % 5 === 4 ? 2 : 1;
    const points = Array.from({ length: pointCount }, (_, i) => k(`cp:${evn}:${i + 1}`));
    const unitAttrs = (o: Org) => ({
      evn,
      description: `${type.name} ${number} (${o.vkm})`,
      owner: k(`org:${o.key}`),
      status: null,
      tractionUnitTypeRef: k(`type:${type.name}`),
      exportLimitationRef: null,
      lifeCycleStateForOverview: 'IN_SERVICE',
      consumptionPointRefs: points,
    });
    const name = `${type.name} ${number}`;
    if (n % 10 === 3) {
      // An owner change on 2024-01-01: the earlier owner is kept in the first segment.
      const previous = owners[(n + 1) % owners.length]!;
      add(unit, 'tractionunit', name, unitAttrs(previous), start, '2024-01-01T00:00:00.000Z', state);
      add(unit, 'tractionunit', name, unitAttrs(owner), '2024-01-01T00:00:00.000Z', FOREVER, state);
    } else {
      add(unit, 'tractionunit', name, unitAttrs(owner), start, FOREVER, state);
    }
    points.forEach((cp, i) => {
      const emsId = `EMS${i + 1}`;
      const parts = { nvr: country.nvr, vkm: owner.vkm, evn, emsId };
      add(
        cp,
        'consumptionpoint',
        buildConsumptionPointName(parts),
        {
          ...parts,
          cpid: buildCpid(parts),
          emsType: i === 0 ? 'EN50463-EMS' : 'EN50463-EMS-AUX',
          energyTypes: ['ACTIVE_CONSUMED', 'ACTIVE_REGENERATED', 'REACTIVE_CONSUMED', 'REACTIVE_REGENERATED'],
          channels: 4,
          tractionUnitRef: unit,
        },
        start,
        FOREVER,
        state,
      );
    });
  }

  return data;
}

export const SEED_COUNTRIES: readonly Country[] = COUNTRIES;

/** Inserts the demo fleet for the given countries; a tenant that already has it is skipped. */
export async function seedFleetData(database: Database, options: SeedFleetOptions = {}): Promise<number> {
  const kinds = COUNTRY_AREA_NAMES.filter((c) => !options.countries || options.countries.includes(c));
  return seedCountries(
    database,
    kinds,
    'org:exchange-a',
    (kind) =>
      buildCountry(
        COUNTRIES.find((c) => c.kind === kind)!,
        options.unitsPerCountry ?? 40,
      ),
    // Demo vehicle keepers belong to the first vehicle keeper of every country ("own data").
    async (ex, kind) => {
      const keeper = seedUuid(`${kind}:org:${COUNTRIES.find((c) => c.kind === kind)!.keepers[0]!.key}`);
      for (const username of ['vehicle-keeper', 'keeper-cpadmin'])
        await linkUserToOrganisations(ex, areaUuid(kind), username, [keeper]);
    },
  );
}

/** Seeder entry (seed/index.ts). */
export async function seedFleet(database: Database): Promise<void> {
  await seedFleetData(database);
}
