// CEBD intake parsing (issue 8 item 3): a day file of ~725,000 records (2,518 consumption points x 288
// five-minute periods, 2.9 million energy values) and one ten times smaller, generated to temp files
// and parsed with the streaming parser from a file read stream. Prints records/s and the peak RSS
// and heap used while each parses: the parser keeps at most one 5,000-record chunk, so both peaks
// should be about the same for both files. CPU seconds are printed beside the wall clock: on a shared
// machine the wall clock also measures the neighbours.
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { parseCebd } from '../apps/server/src/formats/cebd/cebd-format.js';
import { cebdXmlStream, dayFileOptions } from '../apps/server/src/formats/cebd/generate.js';

const DAY_POINTS = 2_518;
const MB = 1024 * 1024;

interface Run {
  records: number;
  problems: number;
  ms: number;
  /** CPU time of the process (user + system): the figure that holds on a shared machine. */
  cpuMs: number;
  peakRss: number;
  peakHeap: number;
}

async function parseFile(path: string): Promise<Run> {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  let peakRss = 0;
  let peakHeap = 0;
  const sample = () => {
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
  };
  const timer = setInterval(sample, 10);
  const started = performance.now();
  const cpu = process.cpuUsage();
  let records = 0;
  let problems = 0;
  try {
    for await (const item of parseCebd(createReadStream(path), { timeZone: 'UTC' })) {
      if (item.kind === 'cebd') records += item.block.records.length;
      else if (item.kind === 'problem') problems += 1;
      sample();
    }
  } finally {
    clearInterval(timer);
  }
  const used = process.cpuUsage(cpu);
  return {
    records,
    problems,
    ms: performance.now() - started,
    cpuMs: (used.user + used.system) / 1000,
    peakRss,
    peakHeap,
  };
}

export async function benchCebdParse(): Promise<void> {
  console.log('\n## CEBD parse (streaming, saxes)');
  const dir = mkdtempSync(join(tmpdir(), 'railwatt-cebd-bench-'));
  try {
    const files: { name: string; path: string; points: number }[] = [
      { name: 'tenth of a day', path: join(dir, 'small.xml'), points: Math.round(DAY_POINTS / 10) },
      { name: 'day', path: join(dir, 'day.xml'), points: DAY_POINTS },
    ];
    for (const f of files) {
      const started = performance.now();
      await pipeline(cebdXmlStream(dayFileOptions(f.points, 1)), createWriteStream(f.path));
      const ms = performance.now() - started;
      console.log(
        `generated ${f.name}: ${f.points * 288} records, ${(statSync(f.path).size / MB).toFixed(1)} MB in ${(ms / 1000).toFixed(1)} s`,
      );
    }
    const baseline = process.memoryUsage();
    console.log(
      `before parsing: RSS ${(baseline.rss / MB).toFixed(0)} MB, heap used ${(baseline.heapUsed / MB).toFixed(0)} MB`,
    );
    // A short warm-up, so the first measured file does not pay for JIT compilation alone.
    await parseFile(files[0]!.path);
    for (const f of files) {
      const run = await parseFile(f.path);
      const size = statSync(f.path).size / MB;
      console.log(
        `${f.name.padEnd(15)} ${run.records.toLocaleString('en')} records (${(run.records * 4).toLocaleString('en')} values), ` +
          `${size.toFixed(1)} MB: ${(run.ms / 1000).toFixed(1)} s = ${Math.round((run.records / run.ms) * 1000).toLocaleString('en')} records/s ` +
          `(${((size / run.ms) * 1000).toFixed(1)} MB/s); CPU ${(run.cpuMs / 1000).toFixed(1)} s = ${Math.round((run.records / run.cpuMs) * 1000).toLocaleString('en')} records per CPU second; peak RSS ${(run.peakRss / MB).toFixed(0)} MB, ` +
          `peak heap used ${(run.peakHeap / MB).toFixed(0)} MB${run.problems ? `; ${run.problems} PROBLEMS` : ''}`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchCebdParse();
