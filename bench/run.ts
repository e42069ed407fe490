// `npm run bench`: every benchmark, printing its figures. Not a test: nothing here fails a build.
import { existsSync } from 'node:fs';
import { benchShell } from './shell.js';

console.log('# Railwatt benchmarks');
console.log(`node ${process.version}, ${new Date().toISOString()}`);
await benchShell();

for (const [file, fn] of [
  ['./fleet.ts', 'benchFleet'],
  ['./excel-import.ts', 'benchExcelImport'],
  ['./excel-import-concurrency.ts', 'benchExcelImportConcurrency'],
  ['./trainrun.ts', 'benchTrainRuns'],
  ['./cebd-parse.ts', 'benchCebdParse'],
  ['./cebd-intake.ts', 'benchCebdIntake'],
  ['./cebd-preprocessing.ts', 'benchCebdPreprocessing'],
  ['./allocation.ts', 'benchAllocation'],
  ['./statistics.ts', 'benchStatistics'],
  ['./combine.ts', 'benchCombine'],
  ['./timeseries-tables.ts', 'benchTimeSeriesTables'],
  ['./timeseries-demo.ts', 'benchTimeSeriesDemo'],
] as const) {
  if (!existsSync(new URL(file, import.meta.url))) continue;
  const mod = (await import(file)) as Record<string, () => Promise<void>>;
  await mod[fn]?.();
}
