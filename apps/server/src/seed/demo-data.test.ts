import {
  COUNTRY_AREA_NAMES,
  KIND_ATTRIBUTE_SCHEMAS,
  referencesOf,
  referenceValues,
  SUPPLY_METERING_POINT_NAME_PATTERN,
  toEntityKind,
} from '@railwatt/contracts';
import { describe, expect, it } from 'vitest';
import { buildAdministration } from './administration.js';
import type { CountryRows } from './entity-rows.js';
import { buildCountry, SEED_COUNTRIES } from './fleet.js';
import { buildInfrastructure } from './infrastructure.js';

/**
 * The seeders insert rows directly (set-based), past the save path's checks, so this holds them to
 * the same contracts: every segment's attributes parse with its kind's schema and every reference
 * resolves to an entity of an allowed kind in the same country.
 */
describe('demo data of every country', () => {
  for (const country of COUNTRY_AREA_NAMES) {
    it(`${country}: attributes follow the kind contracts and references resolve`, () => {
      const parts: CountryRows[] = [
        buildCountry(
          SEED_COUNTRIES.find((c) => c.kind === country)!,
          10,
        ),
        buildInfrastructure(country),
        buildAdministration(country, [2026]),
      ];
      const kindOf = new Map(parts.flatMap((p) => p.entities.map((e) => [e.uuid, e.type] as const)));
      const problems: string[] = [];
      for (const segment of parts.flatMap((p) => p.segments)) {
        const kind = toEntityKind(segment.type)!;
        const parsed = KIND_ATTRIBUTE_SCHEMAS[kind].safeParse(segment.attributes);
        if (!parsed.success) problems.push(`${segment.type} ${segment.name}: ${parsed.error.message}`);
        for (const { field, targets } of referencesOf(kind)) {
          for (const uuid of referenceValues(segment.attributes, field)) {
            const target = kindOf.get(uuid as string);
            if (!target || !targets.includes(toEntityKind(target)!))
              problems.push(`${segment.type} ${segment.name}: ${field} -> ${String(uuid)} (${target ?? 'missing'})`);
          }
        }
      }
      expect(problems).toEqual([]);
    });
  }

  it('gives every grid area a supply metering point named by its input identifier, and every border station a crossing', () => {
    for (const country of COUNTRY_AREA_NAMES) {
      const data = buildInfrastructure(country);
      const points = data.segments.filter((s) => s.type === 'supplymeteringpoint');
      for (const p of points) expect(p.name, country).toMatch(SUPPLY_METERING_POINT_NAME_PATTERN);
      const fed = new Set(points.map((p) => p.attributes.gridAreaRef));
      for (const grid of data.segments.filter((s) => s.type === 'gridarea'))
        expect(fed.has(grid.entityUuid), `${country} ${grid.name}`).toBe(true);
      expect(data.segments.filter((s) => s.type === 'bordercrossing').length, country).toBeGreaterThan(1);
      expect(data.segments.filter((s) => s.type === 'track').length, country).toBeGreaterThan(2);
    }
  });

  it('names are unique per kind within a country (the database refuses twins)', () => {
    for (const country of COUNTRY_AREA_NAMES) {
      const data = [buildInfrastructure(country), buildAdministration(country, [2026, 2027])];
      const names = data.flatMap((d) => d.segments.map((s) => `${s.type}:${s.name.toLowerCase()}`));
      expect(names.length, country).toBe(new Set(names).size);
    }
  });

  it('gives every organisation that pays for energy a contract with fees, tax and VAT in every price area', () => {
    // Issue 18 item 5: a settlement line without a contract valid in its price area bills no fees,
    // tax or VAT; the demo month must bill them everywhere. Railway undertakings pay for their runs,
    // vehicle keepers for energy outside train runs (modules/allocation).
    for (const country of COUNTRY_AREA_NAMES) {
      const seed = SEED_COUNTRIES.find((c) => c.kind === country)!;
      const fleet = buildCountry(seed, 10);
      const infrastructure = buildInfrastructure(country);
      const contracts = buildAdministration(country, [2026]).segments.filter((s) => s.type === 'contract');
      const payers = fleet.segments.filter(
        (s) =>
          s.type === 'organisation' &&
          [...seed.rus, ...seed.keepers].some((o) => o.orgId === (s.attributes as { orgId?: string }).orgId),
      );
      const priceAreas = infrastructure.segments.filter((s) => s.type === 'pricearea');
      expect(payers.length, country).toBe(seed.rus.length + seed.keepers.length);
      expect(priceAreas.length, country).toBeGreaterThan(0);
      for (const org of payers)
        for (const pa of priceAreas) {
          const found = contracts.filter(
            (c) => c.attributes.organisationRef === org.entityUuid && c.attributes.priceAreaRef === pa.entityUuid,
          );
          expect(found.length, `${country} ${org.name} ${pa.name}`).toBe(1);
          const attributes = found[0]!.attributes as Record<string, unknown[] | string | null>;
          expect((attributes.gridFeeTypeRefs as unknown[]).length, `${country} ${org.name} ${pa.name}`).toBeGreaterThan(
            0,
          );
          expect((attributes.energyFeeTypeRefs as unknown[]).length).toBeGreaterThan(0);
          expect(attributes.taxCategoryRef).toBeTruthy();
          expect(attributes.vatCategoryRef).toBeTruthy();
        }
    }
  });
});
