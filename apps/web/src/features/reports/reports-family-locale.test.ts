// @vitest-environment node
import { LANGUAGES } from '@railwatt/contracts';
import { describe, expect, it } from 'vitest';
import { loadMessages } from '../../lib/i18n';

type Tree = { reportOrder: { family: Record<string, string> } };

/**
 * The reports index groups the reports by their XML family (GET /domain/reports `family`): every
 * family the server's reports use has a heading in each of the six languages (the server's
 * modules/reports definitions: settlement, gridarea, supplier, energy, trainrun, priceelements, erp).
 */
const FAMILIES = ['settlement', 'gridarea', 'supplier', 'energy', 'trainrun', 'priceelements', 'erp'];

describe('report family headings (locales/<lng>/reports.json reportOrder.family)', () => {
  it.each([...LANGUAGES])('%s names every family', async (lng) => {
    const family = ((await loadMessages(lng)) as unknown as Tree).reportOrder.family;
    for (const name of FAMILIES) expect(family[name], `${lng} ${name}`).toBeTruthy();
  });
});
