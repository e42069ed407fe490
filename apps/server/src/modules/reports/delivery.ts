import { Readable } from 'node:stream';
import { dayInZone } from '@railwatt/contracts';
import { sql } from 'drizzle-orm';
import type { ServiceContext } from '../../context.js';
import { openStoredFile } from '../datalog/file-store.js';
import { failed, type DeliveryOutcome } from '../delivery/delivery-file.js';
import { deliverToAll, type DeliverySettings, type DeliveryTarget } from '../delivery/service.js';
import { rows } from '../domain/sql.js';
import type { ReportOrder } from './repository.js';

/**
 * Sends an ordered report's file to the order's destinations (calls.md §3: a webservice endpoint, an
 * ftp endpoint, or an e-mail address typed EmailAddress) through modules/delivery, once the file is
 * stored. An ftp endpoint of an order names a host only: without a user and password there is no
 * sign-in, so it is refused with that reason (a schedule with credentials delivers by FTP). The file
 * is read from the data log part by part for each destination, never held whole.
 */
export async function deliverOrderedReport(
  ctx: ServiceContext,
  settings: DeliverySettings,
  order: ReportOrder,
  file: { title: string; contentType: string },
): Promise<DeliveryOutcome[]> {
  if (order.destinations.length === 0) return [];
  const [entry] = await rows<{ fileName: string }>(
    ctx.db,
    sql`SELECT file_name AS "fileName" FROM data_log WHERE tenant = ${order.tenant}::uuid AND id = ${order.dataLogId}`,
  );
  const fileName = entry?.fileName ?? `report-${order.id}`;
  const month = dayInZone(new Date(order.periodStart), order.zoneId).slice(0, 7);
  const targets: DeliveryTarget[] = [];
  const refused: DeliveryOutcome[] = [];
  for (const destination of order.destinations) {
    const d = destination as { type?: string; address?: string; host?: string; webserviceUri?: string };
    if (d.type === 'EmailAddress' && d.address) {
      targets.push({
        destinationType: 'my email',
        to: [d.address],
        subject: `${file.title} ${month} (${ctx.tenant.name})`,
        text: `The report ${file.title} of ${month} for ${ctx.tenant.name}, ordered by ${order.username}, is attached (${fileName}).`,
      });
    } else if (d.webserviceUri) {
      targets.push({ destinationType: 'webservice', webserviceUri: d.webserviceUri });
    } else if (d.host) {
      refused.push(failed('ftp', `FTP to ${d.host} needs a user and password: schedule the report with credentials`));
    }
  }
  const content = () =>
    Readable.from(
      (async function* () {
        const stored = await openStoredFile(ctx.db, order.tenant, order.dataLogId);
        if (!stored) throw new Error(`The file of data-log entry ${order.dataLogId} is gone`);
        yield* stored.parts();
      })(),
    );
  const delivered = await deliverToAll(
    settings,
    { db: ctx.db, tenant: order.tenant, username: order.username },
    targets,
    { fileName, contentType: file.contentType, content },
  );
  return [...delivered, ...refused];
}

/** The outcomes in a line of the data log: where each file went, or why it did not. */
export const deliveryText = (outcomes: readonly DeliveryOutcome[]): string =>
  outcomes
    .map((o) => (o.ok ? `delivered: ${o.location}` : `not delivered (${o.destinationType}): ${o.reason}`))
    .join('; ');
