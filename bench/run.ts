// `npm run bench`: every benchmark, printing its figures. Not a test: nothing here fails a build.
// `npm run bench -- settlement combine` runs only the benchmarks named (their file names).
import { existsSync } from 'node:fs';
import { benchShell } from './shell.js';

const only = process.argv.slice(2);
const wanted = (file: string) => only.length === 0 || only.includes(file.replace(/^\.\/|\.ts$/g, ''));

console.log('# Railwatt benchmarks');
console.log(`node ${process.version}, ${new Date().toISOString()}`);
if (wanted('./shell.ts')) await benchShell();

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
  ['./settlement.ts', 'benchSettlement'],
  ['./timeseries-tables.ts', 'benchTimeSeriesTables'],
  ['./timeseries-demo.ts', 'benchTimeSeriesDemo'],
  ['./upload-memory.ts', 'benchUploadMemory'],
  ['./report-15mindetailed.ts', 'benchReport15minDetailed'],
] as const) {
  if (!wanted(file) || !existsSync(new URL(file, import.meta.url))) continue;
  const mod = (await import(file)) as Record<string, () => Promise<void>>;
  await mod[fn]?.();
}
