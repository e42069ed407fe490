import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { DownloadedFile } from '../../modules/datalog/service.js';

/**
 * Sends a stored file under its name. The name came with the file (any characters), so the header
 * carries an ASCII fallback and the exact name as RFC 5987 `filename*`. A file from the data log is
 * streamed part by part as the client takes it (file-store.ts), with its length known up front.
 */
export function sendStoredFile(reply: FastifyReply, file: DownloadedFile): FastifyReply {
  const ascii = file.fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  reply
    .header('content-type', file.contentType)
    .header(
      'content-disposition',
      `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.fileName)}`,
    )
    .header('cache-control', 'no-store');
  if (Buffer.isBuffer(file.bytes)) return reply.send(file.bytes);
  // One part read ahead at most (Readable.from would buffer 16): memory holds a part or two per download.
  return reply.header('content-length', file.bytes.size).send(Readable.from(file.bytes.parts(), { highWaterMark: 1 }));
}
