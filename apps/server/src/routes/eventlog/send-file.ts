import type { FastifyReply } from 'fastify';
import type { DownloadedFile } from '../../modules/datalog/service.js';

/**
 * Sends a stored file under its name. The name came with the file (any characters), so the header
 * carries an ASCII fallback and the exact name as RFC 5987 `filename*`.
 */
export function sendStoredFile(reply: FastifyReply, file: DownloadedFile): FastifyReply {
  const ascii = file.fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return reply
    .header('content-type', file.contentType)
    .header(
      'content-disposition',
      `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.fileName)}`,
    )
    .header('cache-control', 'no-store')
    .send(file.bytes);
}
