import { describe, expect, it } from 'vitest';
import { INFRASTRUCTURE_WRITERS } from '@railwatt/contracts';
import { infrastructureRoutes } from './infrastructure.routes';
import { INFRASTRUCTURE_ENTITY_SECTION } from './infrastructure-entity-section';

describe('infrastructure entity section', () => {
  const child = (path: string) => infrastructureRoutes.children!.find((r) => r.path === path)!;

  it('lets the same roles write as the server (contracts INFRASTRUCTURE_WRITERS)', () => {
    expect([...child('entity/registration').roles].sort()).toEqual([...INFRASTRUCTURE_WRITERS].sort());
    expect([...child('import').roles].sort()).toEqual([...INFRASTRUCTURE_WRITERS].sort());
  });

  it('has a form for every child route of entity/registration', () => {
    expect(child('entity/registration').children!.map((c) => c.path)).toEqual([...INFRASTRUCTURE_ENTITY_SECTION.kinds]);
    for (const path of ['entity/registration', 'entity/overview', 'entity/overview/errorsummary', 'import']) {
      expect(child(path).component, path).toBeDefined();
    }
    expect(child('entity/registration').children!.every((c) => c.component)).toBe(true);
  });
});
