import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../config.js';
import { tenantExecutor } from '../../db/tenant.js';
import { deliverFile, deliverySettings, type DeliveryTarget } from '../../modules/delivery/service.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { mailAttachments, mailHeader } from '../../test/delivery-peers.js';

/**
 * The embedded default (SMTP_URL unset): a report e-mailed to "my email" is kept as the .eml file
 * nodemailer would have sent, in SENT_MAIL_DIR, recorded in the area's sent mail; the administrator
 * lists the messages of the areas it administers and downloads each file, byte for byte.
 */
describe('sent mail (SMTP_URL unset)', () => {
  let t: TestApp;
  let dir: string;
  const bytes = randomBytes(80_000);
  const ADMIN = 'erex-administrator';
  const NORWAY_ADMIN = 'norway-only-admin';
  const CONFIG = { sentMailDir: '', nodeName: 'node-a', smtpUrl: undefined };

  const keep = async (kind: 'norway' | 'sweden', subject: string, content: Buffer | (() => Readable) = bytes) => {
    const target: DeliveryTarget = {
      destinationType: 'my email',
      to: ['settlement-area-responsible@railwatt.example'],
      subject,
      text: 'Your report is attached.',
    };
    return deliverFile(
      deliverySettings(testConfig(CONFIG)),
      {
        db: tenantExecutor(t.database, t.areaUuid(kind)),
        tenant: t.areaUuid(kind),
        username: 'settlement-area-responsible',
      },
      target,
      { fileName: 'settlement-2026-10.xlsx', contentType: 'application/octet-stream', content },
    );
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'railwatt-sent-mail-test-'));
    CONFIG.sentMailDir = dir;
    t = await createTestApp({ config: CONFIG });
    // An administrator of Norway alone.
    await t.allAreas.query(
      `INSERT INTO app_user (username, first_name, last_name, email, password_hash) VALUES ($1, 'Nora', 'Admin', $2, 'x')`,
      [NORWAY_ADMIN, `${NORWAY_ADMIN}@railwatt.example`],
    );
    await t.allAreas.query(
      `INSERT INTO user_market_function (username, role, area_uuid) VALUES ($1, 'erex-administrator', $2)`,
      [NORWAY_ADMIN, t.areaUuid('norway')],
    );
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the message nodemailer composes as an .eml file, the report attached byte for byte', async () => {
    const outcome = await keep('norway', 'Settlement for October 2026');
    expect(outcome).toMatchObject({ ok: true, destinationType: 'my email', attempts: 1 });
    if (!outcome.ok) return;
    expect(outcome.sentMailId).toBeGreaterThan(0);
    expect(outcome.location).toMatch(
      /^e-mail to settlement-area-responsible@railwatt\.example kept as sent mail \d+ \(SMTP_URL is not set; /,
    );
    const files = readdirSync(dir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^\d{4}-\d\d-\d\dT[\d-]+Z-[0-9a-f-]{36}\.eml$/);
    const eml = readFileSync(join(dir, files[0]!));
    expect(mailHeader(eml, 'From')).toBe('Railwatt <noreply@localhost>');
    expect(mailHeader(eml, 'To')).toBe('settlement-area-responsible@railwatt.example');
    expect(mailHeader(eml, 'Subject')).toBe('Settlement for October 2026');
    expect(mailHeader(eml, 'Message-ID')).toMatch(/^<.+>$/);
    // As on the wire: CRLF line ends only.
    expect(eml.toString('latin1').replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    expect(eml.toString('latin1')).toContain('Your report is attached.');
    const attachments = mailAttachments(eml);
    expect([...attachments.keys()]).toEqual(['settlement-2026-10.xlsx']);
    expect(attachments.get('settlement-2026-10.xlsx')!.equals(bytes)).toBe(true);
  });

  it('lists the kept messages of every area its administrator administers, newest first', async () => {
    const streamed = await keep('sweden', 'Supplier report', () =>
      Readable.from([bytes.subarray(0, 9), bytes.subarray(9)]),
    );
    expect(streamed).toMatchObject({ ok: true });
    const response = await t.callAs(ADMIN, { method: 'GET', url: '/api/administration/sentmail' }, 'administration');
    expect(response.statusCode).toBe(200);
    const page = response.json();
    expect(page).toMatchObject({ totalElements: 2, totalPages: 1, number: 0, size: 20 });
    expect(page.content.map((m: { subject: string }) => m.subject)).toEqual([
      'Supplier report',
      'Settlement for October 2026',
    ]);
    expect(page.content[1]).toEqual({
      id: expect.any(Number),
      tenant: t.areaUuid('norway'),
      areaName: expect.any(String),
      sentAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      sender: 'Railwatt <noreply@localhost>',
      recipients: ['settlement-area-responsible@railwatt.example'],
      subject: 'Settlement for October 2026',
      fileNames: ['settlement-2026-10.xlsx'],
      sizeBytes: expect.any(Number),
      username: 'settlement-area-responsible',
      node: 'node-a',
    });
    const search = await t.callAs(
      ADMIN,
      { method: 'GET', url: '/api/administration/sentmail?search=SUPPLIER&sortBy=subject&descendingOrder=false' },
      'administration',
    );
    expect(search.json().content.map((m: { subject: string }) => m.subject)).toEqual(['Supplier report']);
  });

  it('downloads a kept message as the exact .eml file', async () => {
    const list = await t.callAs(ADMIN, {
      method: 'GET',
      url: '/api/administration/sentmail?sortBy=id&descendingOrder=false',
    });
    const [first] = list.json().content as { id: number; sizeBytes: number }[];
    const response = await t.callAs(ADMIN, {
      method: 'GET',
      url: `/api/administration/sentmail/${first!.id}/download`,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('message/rfc822');
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="sent-mail-\d+-\d{4}-\d\d-\d\d\.eml"/,
    );
    const [file] = readdirSync(dir).sort();
    expect(response.rawPayload.equals(readFileSync(join(dir, file!)))).toBe(true);
    expect(response.rawPayload.length).toBe(first!.sizeBytes);
    expect(mailAttachments(response.rawPayload).get('settlement-2026-10.xlsx')!.equals(bytes)).toBe(true);
  });

  it('shows an administrator of one area that area’s messages only', async () => {
    const response = await t.callAs(NORWAY_ADMIN, { method: 'GET', url: '/api/administration/sentmail' });
    expect(response.json().content.map((m: { subject: string }) => m.subject)).toEqual(['Settlement for October 2026']);
    const all = await t.callAs(ADMIN, { method: 'GET', url: '/api/administration/sentmail?search=supplier' });
    const swedish = (all.json().content as { id: number }[])[0]!.id;
    const download = await t.callAs(NORWAY_ADMIN, {
      method: 'GET',
      url: `/api/administration/sentmail/${swedish}/download`,
    });
    expect(download.statusCode).toBe(404);
  });

  it('keeps the area’s rows to the area (row-level security)', async () => {
    const read = (kind: 'norway' | 'sweden') =>
      tenantExecutor(t.database, t.areaUuid(kind))
        .execute(sql`SELECT subject FROM sent_mail ORDER BY id`)
        .then((r) => (r.rows as { subject: string }[]).map((row) => row.subject));
    expect(await read('norway')).toEqual(['Settlement for October 2026']);
    expect(await read('sweden')).toEqual(['Supplier report']);
  });

  it('answers 404 for an unknown message, and names the node that keeps a file this one does not have', async () => {
    const unknown = await t.callAs(ADMIN, { method: 'GET', url: '/api/administration/sentmail/999999/download' });
    expect(unknown.statusCode).toBe(404);
    await t.allAreas.query(
      `UPDATE sent_mail SET node = 'node-b', eml_file = 'elsewhere.eml' WHERE subject = 'Supplier report'`,
    );
    const all = await t.callAs(ADMIN, { method: 'GET', url: '/api/administration/sentmail?search=supplier' });
    const id = (all.json().content as { id: number }[])[0]!.id;
    const response = await t.callAs(ADMIN, { method: 'GET', url: `/api/administration/sentmail/${id}/download` });
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toBe("The message's file is kept by the server node-b, not by this one (node-a)");
  });

  it('refuses other roles (the call is the administrator’s)', async () => {
    const response = await t.callAs('settlement-area-responsible', {
      method: 'GET',
      url: '/api/administration/sentmail',
    });
    expect(response.statusCode).toBe(403);
  });
});
