import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { requireTool } from '../../test/tools.js';
import { DOCS_FORMATS, EXAMPLE_FILES, parseBytes } from './fixtures.js';
import { cebdFileForRecords, cebdXml, cebdXmlStream, dayFileOptions, generatedBlocks } from './generate.js';

/** libxml2's xmllint checks files against the published schema (skipped without it, a failure on CI). */
const hasXmllint = requireTool('xmllint', 'the CEBD XSD checks');

describe('CEBD generator', () => {
  it('gives the same bytes for the same seed and other bytes for another', () => {
    const a = cebdFileForRecords(600, 3);
    expect(cebdFileForRecords(600, 3).equals(a)).toBe(true);
    expect(cebdFileForRecords(600, 4).equals(a)).toBe(false);
  });

  it('gives a file of exactly N records that parses without problems', async () => {
    for (const n of [1, 288, 289, 1000]) {
      const { problems, records } = await parseBytes(cebdFileForRecords(n));
      expect(problems).toEqual([]);
      expect(records).toHaveLength(n);
    }
  });

  it('streams the same text as the generator, in pieces', async () => {
    const options = dayFileOptions(3, 9);
    const pieces = [...cebdXml(options)];
    expect(pieces.length).toBeGreaterThan(3);
    expect(await text(cebdXmlStream(options))).toBe(pieces.join(''));
  });

  it('makes realistic values: consumption when moving, zero at standstill, regeneration, some 61 and 56', () => {
    const records = [...generatedBlocks(dayFileOptions(20, 5))].flatMap((b) => [...b.records]);
    const standing = records.filter((r) => r.activeConsumed === 0);
    const moving = records.filter((r) => r.activeConsumed > 0);
    expect(standing.length).toBeGreaterThan(records.length * 0.1);
    expect(moving.length).toBeGreaterThan(records.length * 0.3);
    for (const r of standing)
      expect([r.activeRegenerated, r.reactiveConsumed, r.reactiveRegenerated]).toEqual([0, 0, 0]);
    // 0.8 to 4.3 MW for five minutes, less when braking.
    expect(Math.max(...moving.map((r) => r.activeConsumed))).toBeLessThan(400);
    expect(records.filter((r) => r.activeRegenerated > 0).length).toBeGreaterThan(records.length * 0.05);
    expect(records.some((r) => r.quality === 61)).toBe(true);
    expect(records.some((r) => r.quality === 56)).toBe(true);
    expect(records.filter((r) => r.quality === 127).length).toBeGreaterThan(records.length * 0.95);
    // On the route's bounding box (Oslo S - Gardermoen), and moving between stops.
    for (const r of records) {
      expect(r.lat).toBeGreaterThanOrEqual(59.9);
      expect(r.lat).toBeLessThanOrEqual(60.2);
    }
    expect(new Set(records.map((r) => `${r.lat},${r.lon}`)).size).toBeGreaterThan(100);
  });
});

/** Shown in the test name when the schema tests are skipped, so a run says why. */
const skipNote = hasXmllint ? '' : ' [skipped: xmllint is not on PATH; apt-get install libxml2-utils]';

describe('CEBD XML Schema (docs/formats/cebd.xsd)', () => {
  it.skipIf(!hasXmllint)(`validates both examples and generated files with xmllint${skipNote}`, () => {
    const dir = mkdtempSync(join(tmpdir(), 'cebd-xsd-'));
    try {
      const generated = join(dir, 'generated.xml');
      writeFileSync(generated, cebdFileForRecords(700));
      const files = [EXAMPLE_FILES.cebd, EXAMPLE_FILES.readings, generated];
      const out = execFileSync('xmllint', ['--noout', '--schema', resolve(DOCS_FORMATS, 'cebd.xsd'), ...files], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      expect(out).toBe('');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(!hasXmllint)(`refuses a record the parser refuses for its form${skipNote}`, () => {
    const dir = mkdtempSync(join(tmpdir(), 'cebd-xsd-'));
    try {
      const bad = join(dir, 'bad.xml');
      writeFileSync(
        bad,
        '<CEBDFile xmlns="urn:railwatt:cebd:1" version="1" sender="s" created="2026-10-01T00:00:00Z"><CEBDBlock cpid="NO_NSB_917600100015_EMS1"><Record periodEnd="2026-10-01T00:07:00Z" activeConsumed="-1" activeRegenerated="0" reactiveConsumed="0" reactiveRegenerated="0" tractionSystem="06"/></CEBDBlock></CEBDFile>',
      );
      const run = () =>
        execFileSync('xmllint', ['--noout', '--schema', resolve(DOCS_FORMATS, 'cebd.xsd'), bad], { stdio: 'pipe' });
      expect(run).toThrow();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
