import { AREA_WIDE_ROLES } from '@railwatt/contracts';
import { sql } from 'drizzle-orm';
import { defineReport } from './define-report.js';
import type { Texts } from './texts.js';

/** The kinds of price element, as the report names them, by entity type. */
const ELEMENTS: Record<string, Texts> = {
  gridfeetype: {
    en: 'Grid fee',
    da: 'Nettarif',
    nb: 'Nettleie',
    sv: 'Nätavgift',
    fi: 'Verkkomaksu',
    es: 'Peaje de red',
  },
  energyfeetype: {
    en: 'Energy fee',
    da: 'Energigebyr',
    nb: 'Energigebyr',
    sv: 'Energiavgift',
    fi: 'Energiamaksu',
    es: 'Cargo de energía',
  },
  taxcategory: { en: 'Tax', da: 'Afgift', nb: 'Avgift', sv: 'Skatt', fi: 'Vero', es: 'Impuesto' },
  vatcategory: { en: 'VAT', da: 'Moms', nb: 'Mva.', sv: 'Moms', fi: 'ALV', es: 'IVA' },
};

/**
 * The price elements in force in the month (docs/reports.md "priceelements"): every current version
 * (entity_segment, not superseded) of the area's grid fee types, energy fee types, tax categories and
 * VAT categories whose validity overlaps the month, with its price: a fee's price per MWh (in EUR, or
 * in the area's currency when the fee type says so), a tax category's rate per MWh in the area's
 * currency (its general rate; rates per tax area are the settlement's), a VAT category's percentage.
 * Master data of the whole area, the same for everyone who may order it.
 */
export const priceElementsReport = defineReport({
  name: 'priceelements',
  family: 'priceelements',
  title: {
    en: 'Price elements in force',
    da: 'Gældende priselementer',
    nb: 'Gjeldende priselementer',
    sv: 'Gällande priselement',
    fi: 'Voimassa olevat hintaelementit',
    es: 'Elementos de precio vigentes',
  },
  roles: [...AREA_WIDE_ROLES, 'consumer'],
  period: 'month',
  source: null,
  columns: [
    {
      key: 'element',
      kind: 'text',
      texts: {
        en: 'Price element',
        da: 'Priselement',
        nb: 'Priselement',
        sv: 'Priselement',
        fi: 'Hintaelementti',
        es: 'Elemento de precio',
      },
    },
    { key: 'name', kind: 'text', texts: { en: 'Name', da: 'Navn', nb: 'Navn', sv: 'Namn', fi: 'Nimi', es: 'Nombre' } },
    {
      key: 'validFrom',
      kind: 'time',
      texts: {
        en: 'Valid from',
        da: 'Gyldig fra',
        nb: 'Gyldig fra',
        sv: 'Giltig från',
        fi: 'Voimassa alkaen',
        es: 'Válido desde',
      },
    },
    {
      key: 'validUntil',
      kind: 'time',
      texts: {
        en: 'Valid until',
        da: 'Gyldig til',
        nb: 'Gyldig til',
        sv: 'Giltig till',
        fi: 'Voimassa asti',
        es: 'Válido hasta',
      },
    },
    {
      key: 'priceEur',
      kind: 'number',
      unit: 'EUR/MWh',
      texts: { en: 'Price', da: 'Pris', nb: 'Pris', sv: 'Pris', fi: 'Hinta', es: 'Precio' },
    },
    {
      key: 'price',
      kind: 'number',
      unit: 'currency/MWh',
      texts: { en: 'Price', da: 'Pris', nb: 'Pris', sv: 'Pris', fi: 'Hinta', es: 'Precio' },
    },
    {
      key: 'vatPercentage',
      kind: 'number',
      texts: {
        en: 'VAT rate (%)',
        da: 'Momssats (%)',
        nb: 'Mva-sats (%)',
        sv: 'Momssats (%)',
        fi: 'ALV-kanta (%)',
        es: 'Tipo de IVA (%)',
      },
    },
  ],
  sortKeys: ['elementOrder', 'name', 'entityUuid', 'validFrom'],
  query: (scope) => {
    const types = Object.keys(ELEMENTS);
    const words = types.map((t) => ELEMENTS[t]![scope.language]);
    return sql`
    SELECT e.word AS "element", e.n AS "elementOrder", s.name AS "name", s.entity_uuid AS "entityUuid",
           lower(s.valid) AS "validFrom", upper(s.valid) AS "validUntil",
           CASE WHEN s.type IN ('gridfeetype', 'energyfeetype') AND coalesce(s.attributes ->> 'currency', 'EUR') = 'EUR'
                THEN (s.attributes ->> 'price')::numeric END AS "priceEur",
           CASE WHEN s.type IN ('gridfeetype', 'energyfeetype') AND coalesce(s.attributes ->> 'currency', 'EUR') <> 'EUR'
                THEN (s.attributes ->> 'price')::numeric
                WHEN s.type = 'taxcategory' THEN (s.attributes ->> 'rate')::numeric END AS "price",
           CASE WHEN s.type = 'vatcategory' THEN (s.attributes ->> 'percentage')::numeric END AS "vatPercentage"
      FROM entity_segment s
      JOIN unnest(${sql.param(types)}::text[], ${sql.param(words)}::text[]) WITH ORDINALITY AS e(type, word, n)
        ON e.type = s.type
     WHERE s.tenant = ${scope.tenant}::uuid AND s.superseded_at IS NULL
       AND s.valid && tstzrange(${scope.period.start}::timestamptz, ${scope.period.end}::timestamptz)`;
  },
});
