import { formatValue, type RenderColumnKind, type ReportRenderer } from './render.js';

/**
 * A report as XML, one schema per report family (docs/reports/<family>.xsd, written by `familyXsd`
 * from the families' definitions and checked against the published file by the tests):
 *
 *   <Report xmlns="urn:railwatt:report:<family>:1" name=".." area=".." zone=".." language=".."
 *           currency=".." periodStart=".." periodEnd=".." generated="..">
 *     <Title>..</Title>
 *     <Columns><Column key=".." header=".."/>..</Columns>
 *     <Row><organisation>..</organisation><meteredEnergy>240.0000</meteredEnergy>..</Row>
 *   </Report>
 *
 * A row's elements are its columns by key, in the report's order; an empty value is left out.
 * Instants carry their offset (xs:dateTime), numbers 4 decimals (xs:decimal).
 */

export const reportNamespace = (family: string) => `urn:railwatt:report:${family}:1`;

const escapeXml = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    // eslint-disable-next-line no-control-regex -- characters XML 1.0 cannot hold are written as U+FFFD
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '\ufffd');

export const xmlRenderer: ReportRenderer = {
  extension: 'xml',
  contentType: 'application/xml; charset=utf-8',
  async *render(spec, batches) {
    const attrs = {
      name: spec.reportName,
      area: spec.area,
      zone: spec.zone,
      language: spec.language,
      currency: spec.currency,
      periodStart: formatValue(spec.period.start, 'time', spec.zone),
      periodEnd: formatValue(spec.period.end, 'time', spec.zone),
      generated: formatValue(spec.generatedAt, 'time', spec.zone),
    };
    const head = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      `<Report xmlns="${reportNamespace(spec.family)}" ${Object.entries(attrs)
        .map(([k, v]) => `${k}="${escapeXml(v)}"`)
        .join(' ')}>`,
      `  <Title>${escapeXml(spec.title)}</Title>`,
      '  <Columns>',
      ...spec.columns.map((c) => `    <Column key="${c.key}" header="${escapeXml(c.header)}"/>`),
      '  </Columns>',
    ];
    yield Buffer.from(head.join('\n') + '\n', 'utf8');
    for await (const rows of batches) {
      const out = rows.map((row) => {
        const cells = spec.columns
          .map((c) => {
            const value = formatValue(row[c.key], c.kind, spec.zone);
            return value === '' ? '' : `<${c.key}>${escapeXml(value)}</${c.key}>`;
          })
          .join('');
        return `  <Row>${cells}</Row>`;
      });
      yield Buffer.from(out.join('\n') + '\n', 'utf8');
    }
    yield Buffer.from('</Report>\n', 'utf8');
  },
};

const XSD_TYPES: Record<RenderColumnKind, string> = {
  text: 'xs:string',
  number: 'xs:decimal',
  integer: 'xs:integer',
  time: 'xs:dateTime',
  day: 'xs:date',
};

/**
 * The XSD of a report family: every column any of its reports has, each optional, in any order
 * (xs:all), typed by its kind. Two reports of one family giving a key two kinds is a programming
 * error (thrown).
 */
export function familyXsd(
  family: string,
  reports: readonly { name: string; columns: readonly { key: string; kind: RenderColumnKind }[] }[],
): string {
  const kinds = new Map<string, RenderColumnKind>();
  for (const report of reports)
    for (const c of report.columns) {
      const known = kinds.get(c.key);
      if (known && known !== c.kind) throw new Error(`Family ${family}: column ${c.key} is ${known} and ${c.kind}`);
      kinds.set(c.key, c.kind);
    }
  const keys = [...kinds.keys()].sort();
  const ns = reportNamespace(family);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<!-- Railwatt report family "${family}": ${reports.map((r) => r.name).join(', ')}. Written by`,
    '     apps/server/src/formats/report/xml.ts familyXsd; the tests check this file against it. -->',
    `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns="${ns}" targetNamespace="${ns}"`,
    '           elementFormDefault="qualified">',
    '  <xs:element name="Report">',
    '    <xs:complexType>',
    '      <xs:sequence>',
    '        <xs:element name="Title" type="xs:string"/>',
    '        <xs:element name="Columns">',
    '          <xs:complexType>',
    '            <xs:sequence>',
    '              <xs:element name="Column" minOccurs="0" maxOccurs="unbounded">',
    '                <xs:complexType>',
    '                  <xs:attribute name="key" type="xs:NCName" use="required"/>',
    '                  <xs:attribute name="header" type="xs:string" use="required"/>',
    '                </xs:complexType>',
    '              </xs:element>',
    '            </xs:sequence>',
    '          </xs:complexType>',
    '        </xs:element>',
    '        <xs:element name="Row" minOccurs="0" maxOccurs="unbounded">',
    '          <xs:complexType>',
    '            <xs:all>',
    ...keys.map((k) => `              <xs:element name="${k}" type="${XSD_TYPES[kinds.get(k)!]}" minOccurs="0"/>`),
    '            </xs:all>',
    '          </xs:complexType>',
    '        </xs:element>',
    '      </xs:sequence>',
    ...['name', 'area', 'zone', 'language', 'currency'].map(
      (a) => `      <xs:attribute name="${a}" type="xs:string" use="required"/>`,
    ),
    ...['periodStart', 'periodEnd', 'generated'].map(
      (a) => `      <xs:attribute name="${a}" type="xs:dateTime" use="required"/>`,
    ),
    '    </xs:complexType>',
    '  </xs:element>',
    '</xs:schema>',
    '',
  ].join('\n');
}
