import { sentMailCalls as calls } from '@railwatt/contracts';
import type { FastifyPluginAsync } from 'fastify';
import type { Database } from '../../db/client.js';
import { allAreasExecutor } from '../../db/tenant.js';
import { administratorAreas } from '../../modules/datalog/service.js';
import { downloadSentMail, listSentMail } from '../../modules/delivery/sent-mail.js';
import { sendStoredFile } from '../eventlog/send-file.js';
import { route } from '../register-call.js';

export interface AdministrationRoutesOptions {
  database: Database;
  /** config.sentMailDir (SENT_MAIL_DIR): where the kept messages' files are. */
  sentMailDir: string;
  /** config.nodeName: a file kept by another node is not on this one's disk. */
  nodeName: string;
}

/**
 * The administrator's "sent mail" page (our addition, contracts calls/sent-mail.ts). Like the
 * master-data data log, an administrator's view across the areas it administers: the all-areas
 * executor, narrowed in SQL to the areas where the caller holds erex-administrator.
 */
export const administrationRoutes: FastifyPluginAsync<AdministrationRoutesOptions> = async (app, options) => {
  const allAreas = allAreasExecutor(options.database, 'sent mail: the administrator across its areas');
  route(app, calls.list, async (request) =>
    listSentMail(allAreas, administratorAreas(request.auth.functions), request.query),
  );
  route(app, calls.download, async (request, reply) =>
    sendStoredFile(
      reply,
      await downloadSentMail(allAreas, administratorAreas(request.auth.functions), request.params.id, {
        sentMailDir: options.sentMailDir,
        node: options.nodeName,
      }),
    ),
  );
};
