import { describe, expect, it } from 'vitest';
import { ADMINISTRATION_KINDS } from '@railwatt/contracts';
import { mayWrite } from '../../components/ui/entity-kit';
import { administrationRoutes } from './administration.routes';
import { ADMINISTRATION_ENTITY_SECTION, EXPORT_LIMITATION_SECTION } from './administration-entity-sections';

describe('administration entity sections', () => {
  const child = (path: string) => administrationRoutes.children!.find((r) => r.path === path)!;

  it('renders the entity kit on the entity routes', () => {
    for (const path of [
      'entities/registration',
      'entities/overview',
      'entities/overview/errorsummary',
      'import',
      'segmentshistory',
      'exportlimitation/registration',
      'exportlimitation/overview',
    ]) {
      expect(child(path).component, path).toBeDefined();
    }
    expect(child('entities/registration').children!.map((c) => c.path)).toEqual([...ADMINISTRATION_KINDS]);
    expect(child('entities/registration').children!.every((c) => c.component)).toBe(true);
  });

  it('lets the administration writers write, only the erex-administrator in the exchange area', () => {
    expect(mayWrite(ADMINISTRATION_ENTITY_SECTION, ['settlement-area-responsible'], 'norway')).toBe(true);
    expect(mayWrite(ADMINISTRATION_ENTITY_SECTION, ['settlement-area-responsible'], 'exchange')).toBe(false);
    expect(mayWrite(ADMINISTRATION_ENTITY_SECTION, ['erex-administrator'], 'exchange')).toBe(true);
    expect(mayWrite(ADMINISTRATION_ENTITY_SECTION, ['audit-settlement-area-responsible'], 'norway')).toBe(false);
    expect(mayWrite(ADMINISTRATION_ENTITY_SECTION, ['consumer'], 'norway')).toBe(false);
  });

  it('keeps export limitations to the erex-administrator (product.md §6)', () => {
    expect(mayWrite(EXPORT_LIMITATION_SECTION, ['erex-administrator'], 'norway')).toBe(true);
    expect(mayWrite(EXPORT_LIMITATION_SECTION, ['settlement-area-responsible'], 'norway')).toBe(false);
    expect(child('exportlimitation/overview').roles).toEqual(['erex-administrator']);
  });
});
