import { Readable } from 'node:stream';
import { dayInZone, storedDeliveryDestinationSchema } from '@railwatt/contracts';
import { sql } from 'drizzle-orm';
import type { ServiceContext } from '../../context.js';
import { openStoredFile } from '../datalog/file-store.js';
import { failed, type DeliveryOutcome } from '../delivery/delivery-file.js';
import { deliveryCredentialsKey } from '../delivery/credentials.js';
import {
  DEFAULT_SCHEDULED_RETRY,
  deliverFile,
  deliverToAll,
  resolveDestination,
  type DeliverySettings,
  type DeliveryTarget,
} from '../delivery/service.js';
import { rows } from '../domain/sql.js';
import type { ReportOrder } from './repository.js';

/**
 * Sends an ordered report's file to the order's destinations (calls.md §3: a webservice endpoint, an
 * ftp endpoint, or an e-mail address typed EmailAddress) through modules/delivery, once the file is
 * stored. An ftp endpoint of an order names a host only: without a user and password there is no
 * sign-in, so it is refused with that reason (a schedule with credentials delivers by FTP). A
 * scheduled report's order holds its schedule's stored destination (modules/report-schedules), whose
 * password is decrypted here, for the connection only; its failed deliveries are tried again. The
 * file is read from the data log part by part for each destination, never held whole.
 */
export async function deliverOrderedReport(
  ctx: ServiceContext,
  settings: DeliverySettings,
  order: ReportOrder,
  file: { title: string; contentType: string },
  onRetry?: (text: string) => Promise<void>,
): Promise<DeliveryOutcome[]> {
  if (order.destinations.length === 0) return [];
  const [entry] = await rows<{ fileName: string }>(
    ctx.db,
    sql`SELECT file_name AS "fileName" FROM data_log WHERE tenant = ${order.tenant}::uuid AND id = ${order.dataLogId}`,
  );
  const fileName = entry?.fileName ?? `report-${order.id}`;
  const month = dayInZone(new Date(order.periodStart), order.zoneId).slice(0, 7);
  const message = {
    subject: `${file.title} ${month} (${ctx.tenant.name})`,
    text: `The report ${file.title} of ${month} for ${ctx.tenant.name}, ${
      order.scheduleUuid ? `scheduled by ${order.scheduleOwner ?? order.username}` : `ordered by ${order.username}`
    }, is attached (${fileName}).`,
  };
  const targets: DeliveryTarget[] = [];
  const refused: DeliveryOutcome[] = [];
  for (const destination of order.destinations) {
    const stored = storedDeliveryDestinationSchema.safeParse(destination);
    if (stored.success && order.scheduleUuid) {
      // A schedule's destination (modules/report-schedules): its password decrypted for the schedule,
      // "my email" the owner's address.
      const resolved = resolveDestination(stored.data, {
        key: await deliveryCredentialsKey(ctx.db, settings.credentialsKey),
        owner: scheduleCredentialsOwner(order.scheduleUuid),
        myEmail: await emailOf(ctx, order.scheduleOwner ?? order.username),
        message,
        onNewHostKey: (fingerprint) => pinScheduleHostKey(ctx, order.scheduleUuid!, fingerprint),
      });
      if (resolved.ok) targets.push(resolved.target);
      else refused.push(resolved.outcome);
      continue;
    }
    const d = destination as { type?: string; address?: string; host?: string; webserviceUri?: string };
    if (d.type === 'EmailAddress' && d.address) {
      targets.push({ destinationType: 'my email', to: [d.address], ...message });
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
  const deliveryFile = { fileName, contentType: file.contentType, content };
  const who = { db: ctx.db, tenant: order.tenant, username: order.username };
  if (!order.scheduleUuid) return [...(await deliverToAll(settings, who, targets, deliveryFile)), ...refused];
  // A scheduled report has no one waiting at a screen to try again: a failed delivery is tried again
  // (settings.scheduledRetry), waiting longer each time; an outcome of no attempt (a bad address, a
  // password that does not decrypt) would fail the same way and is not repeated.
  const retry = settings.scheduledRetry ?? DEFAULT_SCHEDULED_RETRY;
  const outcomes: DeliveryOutcome[] = [];
  for (const target of targets) {
    let outcome = await deliverFile(settings, who, target, deliveryFile);
    for (let attempt = 2; !outcome.ok && outcome.attempts > 0 && attempt <= retry.attempts; attempt++) {
      const wait = retry.delayMs * 2 ** (attempt - 2);
      await onRetry?.(
        `Delivery attempt ${attempt - 1} of ${retry.attempts} failed (${outcome.reason}); trying again in ${Math.round(wait / 1000)} s`,
      );
      await new Promise((resolve) => setTimeout(resolve, wait));
      outcome = await deliverFile(settings, who, target, deliveryFile);
    }
    if (!outcome.ok && outcome.attempts > 0 && retry.attempts > 1)
      outcome = failed(target.destinationType, `${outcome.reason} (after ${retry.attempts} attempts)`, retry.attempts);
    outcomes.push(outcome);
  }
  return [...outcomes, ...refused];
}

/** The additional authenticated data a schedule's destination password is encrypted with (credentials.ts). */
export const scheduleCredentialsOwner = (scheduleUuid: string): string => `scheduled_report:${scheduleUuid}`;

/** The user's e-mail address, or null. */
async function emailOf(ctx: ServiceContext, username: string): Promise<string | null> {
  const [user] = await rows<{ email: string | null }>(
    ctx.db,
    sql`SELECT email FROM app_user WHERE username = ${username}`,
  );
  return user?.email ?? null;
}

/** SFTP accept-new: the host key met at the first delivery is pinned on the schedule. */
async function pinScheduleHostKey(ctx: ServiceContext, scheduleUuid: string, fingerprint: string): Promise<void> {
  await ctx.db.execute(
    sql`UPDATE report_schedule SET destination = jsonb_set(destination, '{hostKeyFingerprint}', to_jsonb(${fingerprint}::text))
         WHERE tenant = ${ctx.tenant.uuid}::uuid AND uuid = ${scheduleUuid}::uuid`,
  );
}

/** The outcomes in a line of the data log: where each file went, or why it did not. */
export const deliveryText = (outcomes: readonly DeliveryOutcome[]): string =>
  outcomes
    .map((o) => (o.ok ? `delivered: ${o.location}` : `not delivered (${o.destinationType}): ${o.reason}`))
    .join('; ');
