import type { QualityCode } from '@railwatt/contracts';

/**
 * Writes valid sdv files (ebIX ValidatedMeteredData, SDAT-CH style) from metering points and
 * 15-minute values, deterministically: for the tests, the demo data and the bench.
 */

export interface SdvSeriesInput {
  meteringPoint: string;
  /** Start of the interval, a UTC instant (ISO 8601). */
  start: string;
  /** One value per 15 minutes in kWh; null is written as Condition 46 without a Volume. */
  values: (number | null)[];
  /** Quality per value, written as Condition (127 is left out). */
  qualities?: QualityCode[];
}

export interface SdvFileInput {
  sender: string;
  receiver: string;
  documentId: string;
  /** When the document was made (ISO 8601). */
  created: string;
  series: SdvSeriesInput[];
  /** Values are written in this unit (converted from kWh). Default KWH. */
  unit?: 'KWH' | 'MWH';
  /** The namespace prefix (default rsm); '' writes a default namespace. */
  prefix?: string;
}

const escapeXml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const decimal = (value: number): string => {
  const text = String(value);
  return /e/i.test(text) ? value.toFixed(20).replace(/\.?0+$/, '') : text;
};

const utc = (iso: string): string => new Date(iso).toISOString().replace('.000Z', 'Z');

export function writeSdv(input: SdvFileInput): string {
  const p = input.prefix ?? 'rsm';
  const t = (name: string) => (p ? `${p}:${name}` : name);
  const el = (name: string, body: string) => `<${t(name)}>${body}</${t(name)}>`;
  const unit = input.unit ?? 'KWH';
  const lines: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<${t('ValidatedMeteredData_12')} xmlns${p ? `:${p}` : ''}="http://www.strom.ch">`,
    `  ${el(
      'ValidatedMeteredData_HeaderInformation',
      [
        el('HeaderVersion', '1.0'),
        el('Sender', el('ID', el('EICID', escapeXml(input.sender))) + el('Role', 'DSO')),
        el('Receiver', el('ID', el('EICID', escapeXml(input.receiver))) + el('Role', 'SDV')),
        el('InstanceDocument', el('DocumentID', escapeXml(input.documentId)) + el('Creation', utc(input.created))),
      ].join(''),
    )}`,
  ];
  for (const s of input.series) {
    const end = new Date(Date.parse(s.start) + s.values.length * 900_000).toISOString();
    lines.push(`  <${t('MeteringData')}>`);
    lines.push(`    ${el('Interval', el('StartDateTime', utc(s.start)) + el('EndDateTime', utc(end)))}`);
    lines.push(`    ${el('Resolution', el('Resolution', '15') + el('Unit', 'MIN'))}`);
    lines.push(`    ${el('ConsumptionMeteringPoint', el('MeteringPointID', escapeXml(s.meteringPoint)))}`);
    lines.push(`    ${el('Product', el('ID', '8716867000030') + el('MeasureUnit', unit))}`);
    s.values.forEach((value, i) => {
      const quality = value === null ? 46 : (s.qualities?.[i] ?? 127);
      const volume =
        value === null ? '' : el('Volume', decimal(unit === 'MWH' ? Math.round(value * 1e6) / 1e9 : value));
      const condition = quality === 127 ? '' : el('Condition', String(quality));
      lines.push(`    ${el('Observation', el('Position', el('Sequence', String(i + 1))) + volume + condition)}`);
    });
    lines.push(`  </${t('MeteringData')}>`);
  }
  lines.push(`</${t('ValidatedMeteredData_12')}>`, '');
  return lines.join('\n');
}
