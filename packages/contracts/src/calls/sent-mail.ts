import { EML_CONTENT_TYPE, sentMailIdParamSchema, sentMailPageQuerySchema, sentMailSchema } from '../deliveries.js';
import { pageOf } from '../paging.js';
import { defineCall } from './define.js';
import { POLICIES } from './policies.js';

/**
 * Our addition (not in calls.md, which has no call for it): the administrator's "sent mail" page of
 * issue 20 item 5. Without SMTP_URL (the embedded default) the server keeps each e-mail it would have
 * sent as a file in its data directory; these calls list them and download one, so nothing is lost
 * and a demo shows what would have gone. Under /administration, the product's section for the
 * administrator's pages. The erex-administrator sees the messages of every area it administers.
 */
export const sentMailCalls = {
  list: defineCall({
    method: 'GET',
    path: '/administration/sentmail',
    access: POLICIES.administratorOnly,
    summary: 'Our addition: the e-mails kept instead of sent (SMTP_URL unset), newest first (paged)',
    query: sentMailPageQuerySchema,
    response: pageOf(sentMailSchema),
  }),
  download: defineCall({
    method: 'GET',
    path: '/administration/sentmail/{id}/download',
    access: POLICIES.administratorOnly,
    summary: `Our addition: one kept e-mail as the .eml file (${EML_CONTENT_TYPE}) a mail server would have received`,
    params: sentMailIdParamSchema,
    download: true,
  }),
};
