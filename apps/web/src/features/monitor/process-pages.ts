/**
 * The processes of product.md §2 that have Monitor pages, and which pages each has: monitor.routes.tsx
 * builds their routes from this list and the processes index links from it, so "which process has a
 * run page" is said once. It is plain data (no screens) so a screen may read it without importing
 * the route module that loads it.
 */
export interface ProcessPages {
  name: string;
  run?: boolean;
  configuration?: 'edit' | 'read-only';
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
  { name: 'train-preprocessing', run: true, configuration: 'edit' },
  { name: 'combine', configuration: 'edit' },
  { name: 'calculate-consumption-factor', run: true, configuration: 'edit' },
  { name: 'shunting-and-stabling', run: true, configuration: 'edit' },
  { name: 'energy-outside-train-run', run: true, configuration: 'read-only' },
  { name: 'freight-consumption-factor', run: true, configuration: 'edit' },
  { name: 'metered-energy-aggregation', run: true, configuration: 'edit' },
];
