import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { EML_CONTENT_TYPE, TEXT_LIMITS, type SentMail, type SentMailPageQuery } from '@railwatt/contracts';
import { sql, type SQL } from 'drizzle-orm';
import { boundedText, storableFileName, storableName } from '../../db/storable-text.js';
import { ApiError } from '../../errors.js';
import type { DownloadedFile } from '../datalog/service.js';
import { rows, type Executor } from '../domain/sql.js';

/**
 * The messages kept instead of sent (SMTP_URL unset): one row per message in sent_mail (migration
 * 0400, area data under row-level security) beside its .eml file in the mail directory. The
 * administrator's "sent mail" page lists them across the areas it administers, like the
 * master-data data log (routes/administration), and downloads each file.
 */

export interface KeptMail {
  tenant: string;
  sender: string;
  recipients: readonly string[];
  subject: string;
  fileNames: readonly string[];
  /** The file's name in the mail directory. */
  emlFile: string;
  sizeBytes: number;
  username: string | null;
  node: string;
}

/** The record of a kept message, through the executor of its area; answers its id. */
export async function recordSentMail(ex: Executor, mail: KeptMail): Promise<number> {
  const [row] = await rows<{ id: number }>(
    ex,
    sql`INSERT INTO sent_mail (tenant, sender, recipients, subject, file_names, eml_file, size_bytes, username, node)
        VALUES (${mail.tenant}::uuid, ${boundedText(mail.sender, 4000)},
                ${sql.param(mail.recipients.slice(0, 100).map((r) => boundedText(r, 254)))}::text[],
                ${boundedText(mail.subject, 4000)},
                ${sql.param(mail.fileNames.slice(0, 100).map((f) => storableFileName(f)))}::text[],
                ${mail.emlFile}, ${mail.sizeBytes},
                ${mail.username === null ? null : storableName(mail.username, TEXT_LIMITS.identifier)}, ${boundedText(mail.node, 200)})
        RETURNING id::int AS id`,
  );
  return row!.id;
}

const SORT_COLUMNS: Record<SentMailPageQuery['sortBy'], SQL> = {
  sentAt: sql`m.sent_at`,
  subject: sql`m.subject`,
  sizeBytes: sql`m.size_bytes`,
  id: sql`m.id`,
};

/** `areas` null: every area (an administrator of all areas); else those areas only. */
const inAreas = (areas: readonly string[] | null): SQL =>
  areas === null ? sql`TRUE` : sql`m.tenant = ANY(${sql.param([...areas])}::uuid[])`;

/** GET /administration/sentmail: newest first by default, on the all-areas executor narrowed to `areas`. */
export async function listSentMail(
  allAreas: Executor,
  areas: readonly string[] | null,
  query: SentMailPageQuery,
): Promise<{ content: SentMail[]; totalPages: number; totalElements: number; number: number; size: number }> {
  const search = query.search?.trim().toLowerCase();
  const where = sql.join(
    [
      inAreas(areas),
      // A contains match without LIKE, so % and _ in the search are plain characters.
      ...(search
        ? [
            sql`strpos(lower(concat_ws(' ', m.subject, array_to_string(m.recipients, ' '), array_to_string(m.file_names, ' '))), ${search}) > 0`,
          ]
        : []),
    ],
    sql` AND `,
  );
  const direction = query.descendingOrder ? sql`DESC` : sql`ASC`;
  const found = await rows<SentMail & { total: number }>(
    allAreas,
    sql`SELECT m.id::int AS id, m.tenant::text AS tenant, coalesce(a.name, '') AS "areaName",
               to_char(m.sent_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "sentAt",
               m.sender, m.recipients, m.subject, m.file_names AS "fileNames", m.size_bytes::bigint AS "sizeBytes",
               m.username, m.node, count(*) OVER ()::int AS total
          FROM sent_mail m LEFT JOIN settlement_area a ON a.uuid = m.tenant
         WHERE ${where}
         ORDER BY ${SORT_COLUMNS[query.sortBy]} ${direction}, m.id ${direction}
         LIMIT ${query.size} OFFSET ${query.page * query.size}`,
  );
  const totalElements = found[0]?.total ?? (query.page === 0 ? 0 : await countSentMail(allAreas, where));
  return {
    content: found.map(({ total: _total, ...mail }) => mail),
    totalPages: Math.ceil(totalElements / query.size),
    totalElements,
    number: query.page,
    size: query.size,
  };
}

async function countSentMail(allAreas: Executor, where: SQL): Promise<number> {
  const [row] = await rows<{ total: number }>(
    allAreas,
    sql`SELECT count(*)::int AS total FROM sent_mail m WHERE ${where}`,
  );
  return row?.total ?? 0;
}

/**
 * GET /administration/sentmail/{id}/download: the .eml file, sent part by part. The file is in the
 * mail directory of the node that kept it (NODE_NAME); on another node of several it is not there,
 * and the answer says which node has it.
 */
export async function downloadSentMail(
  allAreas: Executor,
  areas: readonly string[] | null,
  id: number,
  where: { sentMailDir: string; node: string },
): Promise<DownloadedFile> {
  const [mail] = await rows<{ emlFile: string; node: string; subject: string; sentAt: string }>(
    allAreas,
    sql`SELECT m.eml_file AS "emlFile", m.node, m.subject,
               to_char(m.sent_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS "sentAt"
          FROM sent_mail m WHERE m.id = ${id} AND ${inAreas(areas)}`,
  );
  if (!mail) throw ApiError.notFound('No such sent mail');
  const path = join(where.sentMailDir, mail.emlFile);
  const size = await stat(path).then(
    (s) => s.size,
    () => null,
  );
  if (size === null) {
    throw ApiError.notFound(
      mail.node === where.node
        ? `The message's file ${mail.emlFile} is no longer in ${where.sentMailDir}`
        : `The message's file is kept by the server ${mail.node}, not by this one (${where.node})`,
    );
  }
  return {
    fileName: `sent-mail-${id}-${mail.sentAt}.eml`,
    contentType: EML_CONTENT_TYPE,
    bytes: { size, parts: () => createReadStream(path) },
  };
}
