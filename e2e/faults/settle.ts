/**
 * The end of a fault run: waits until every expected webhook event has arrived and the paid payments'
 * receipts are in the catcher, then long enough for a duplicate delivery, event or mail to show up if
 * one were on its way (leases are 10 s in the disposable platform), and counts both.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { eventually } from '@hc/test-kit';
import type { InjectedFault } from './fault-injector.ts';
import { countMails, waitForReceipts, type MailCounts } from './mail-checks.ts';
import { countWebhooks, type WebhookCounts } from './outcome-checks.ts';
import type { ReceivedEvent } from './webhook-receiver.ts';

export async function settleAndCount(options: {
  readonly deliveries: readonly ReceivedEvent[];
  /** `payment transition` pairs (expectedOutcomes). */
  readonly expected: ReadonlySet<string>;
  /** Whether a fault accounts for an event id's arrivals (countWebhooks). */
  readonly explained: (arrivals: readonly number[]) => boolean;
  readonly mailUrl: string;
  /** Whether a fault accounts for a mail's copies (countMails; by default none does). */
  readonly mailExplained?: (arrivals: readonly number[]) => boolean;
  readonly paid: number;
  /** Held payments, when each must have its alert mail (waited for and counted as `mails.others`). */
  readonly held?: number;
  /**
   * Webhooks' database: an event id sent again after an attempt its attempt log records as failed (the
   * merchant's 200 not seen within the delivery timeout on a loaded machine, say) was retried by design.
   */
  readonly webhooksDatabaseUrl?: string;
}): Promise<{ webhooks: WebhookCounts; mails: MailCounts; retriedAfterFailure: number }> {
  let retried = new Set<string>();
  const explained = (at: readonly number[], id: string) => retried.has(id) || options.explained(at);
  const webhooks = () => countWebhooks(options.deliveries, options.expected, explained);
  await eventually(
    async () => webhooks().lost,
    (lost) => lost.length === 0,
    90_000,
  );
  // 90 s: a mail whose sender was killed mid-send goes again when its 60 s lease runs out.
  await waitForReceipts(options.mailUrl, options.paid, 90_000, options.held);
  await new Promise((resolve) => setTimeout(resolve, 12_000));
  if (options.webhooksDatabaseUrl) retried = await failedAttemptsOf(options.webhooksDatabaseUrl, options.deliveries);
  return { webhooks: webhooks(), mails: await countMails(options.mailUrl, options.mailExplained), retriedAfterFailure: retried.size };
}

/** The event ids received more than once whose attempt log holds a failed attempt. */
async function failedAttemptsOf(databaseUrl: string, deliveries: readonly ReceivedEvent[]): Promise<Set<string>> {
  const seen = new Map<string, number>();
  for (const d of deliveries) seen.set(d.id, (seen.get(d.id) ?? 0) + 1);
  const twice = [...seen].filter(([, n]) => n > 1).map(([id]) => id);
  if (twice.length === 0) return new Set();
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const { rows } = await db.query<{ event_id: string }>(
      'SELECT DISTINCT event_id FROM delivery_attempts WHERE NOT succeeded AND event_id = ANY($1::text[])',
      [twice],
    );
    return new Set(rows.map((row) => row.event_id));
  } finally {
    await db.end();
  }
}

/** When each SIGKILL of a copy of `service` (`service` or `service-2`) happened. */
export function killsOf(injected: readonly InjectedFault[], service: string): number[] {
  return injected
    .filter((f) => f.fault.kind === 'kill' && f.fault.processes.some((p) => p === service || p.startsWith(`${service}-`)))
    .map((f) => f.at);
}

/**
 * When the copies of `service` logged `message` (`msg` of their JSON log lines in the platform's log
 * folder), e.g. webhooks' "delivery worker: attempt could not be completed": the attempt's outcome was
 * not recorded, so its lease runs out and it is sent again (docs/webhooks.md, at least once).
 */
export function loggedAt(logs: string, service: string, message: string): number[] {
  const times: number[] = [];
  for (const file of [`${service}.log`, `${service}-2.log`]) {
    const path = join(logs, file);
    if (!existsSync(path)) continue;
    for (const line of readFileSync(path, 'utf8').split('\n')) {
      if (!line.includes(message)) continue;
      try {
        const entry = JSON.parse(line) as { msg?: string; time?: number };
        if (entry.msg === message && typeof entry.time === 'number') times.push(entry.time);
      } catch {
        // Not a log line of the service's own (a crash's stack, say).
      }
    }
  }
  return times;
}
