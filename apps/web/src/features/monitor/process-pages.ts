import type { AreaKind } from '@railwatt/contracts';
import { processPath } from '../../lib/process-path';

/**
 * The processes of product.md §2 that have Monitor pages, and which pages each has: monitor.routes.tsx
 * builds their routes from this list and the processes index links from it, so "which process has a
 * run or a configuration page" is said once. It is plain data (no screens) so a screen may read it without importing
 * the route module that loads it.
 */
export interface ProcessPages {
  name: string;
  run?: boolean;
  configuration?: 'edit' | 'read-only';
  /** A configuration of the process's own for one area, at `<path>/view` and `<path>/edit` (product.md §2). */
  areaConfigurations?: readonly { path: string; area: AreaKind; titleKey: string }[];
}

export const PROCESS_PAGES: readonly ProcessPages[] = [
  { name: 'cebd-preprocessing', run: true, configuration: 'edit' },
  { name: 'profile', run: true, configuration: 'edit' },
  { name: 'annual-distribution', run: true, configuration: 'edit' },
  { name: 'price-and-supply', run: true, configuration: 'edit' },
  { name: 'on-account', run: true, configuration: 'edit' },
  { name: 'payload-with-trainprofile' },
  { name: 'reported-train-consumption-with-track' },
  { name: 'reported-train-consumption' },
  {
    name: 'train-preprocessing',
    run: true,
    configuration: 'edit',
    // "train-preprocessing (plus a Swiss configuration variant)".
    areaConfigurations: [
      { path: 'configuration-switzerland', area: 'switzerland', titleKey: 'processes.configurationSwitzerland' },
    ],
  },
  { name: 'combine', configuration: 'edit' },
  { name: 'calculate-consumption-factor', run: true, configuration: 'edit' },
  { name: 'shunting-and-stabling', run: true, configuration: 'edit' },
  { name: 'energy-outside-train-run', run: true, configuration: 'read-only' },
  { name: 'freight-consumption-factor', run: true, configuration: 'edit' },
  { name: 'metered-energy-aggregation', run: true, configuration: 'edit' },
];

/**
 * The configuration pages of a process the user may read in the area: its configuration's view and,
 * in the area that has one, the area's own configuration (train-preprocessing's Swiss one).
 */
export function configurationLinks(
  pages: ProcessPages | undefined,
  area: AreaKind | null,
): { to: string; labelKey: string }[] {
  if (!pages?.configuration) return [];
  const own = (pages.areaConfigurations ?? [])
    .filter((c) => c.area === area)
    .map((c) => ({ to: processPath(pages.name, `${c.path}/view`), labelKey: c.titleKey }));
  return [{ to: processPath(pages.name, 'configuration/view'), labelKey: 'processes.configuration' }, ...own];
}
