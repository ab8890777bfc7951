import type { Logger } from '@hc/logging';
import pg from 'pg';
import { backoffDelay, type BackoffSettings } from '@hc/batching';
import { OUTBOX_CHANNEL } from './sql.ts';

export interface OutboxListenerSettings {
  connection: pg.ClientConfig;
  /** Called on each NOTIFY of the outbox channel, and once after (re)listening. */
  wake: () => void;
  isStopped: () => boolean;
  backoff: BackoffSettings;
  logger: Logger;
}

/**
 * The relay's LISTEN/NOTIFY wake-up: a connection of its own that stays open, re-opened with a
 * bounded back-off if it drops (the relay polls meanwhile).
 */
export class OutboxListener {
  private client: pg.Client | undefined;
  private relistenTimer: NodeJS.Timeout | undefined;
  private failures = 0;
  private readonly settings: OutboxListenerSettings;

  constructor(settings: OutboxListenerSettings) {
    this.settings = settings;
  }

  /** True while the LISTEN connection is up (every committed outbox row then wakes the relay). */
  get listening(): boolean {
    return this.client !== undefined;
  }

  /** Opens the connection and LISTENs; rejects if either fails. */
  async listen(): Promise<void> {
    const { connection, wake, isStopped } = this.settings;
    const client = await openListenConnection(connection, wake, (lost, error) => this.onLost(lost, error));
    if (isStopped()) {
      // stop() came while this re-LISTEN was connecting; it has already closed what it knew of.
      await client.end().catch(() => undefined);
      return;
    }
    this.failures = 0;
    this.client = client;
    // A row committed while we were not listening would otherwise wait for the next poll.
    wake();
  }

  async close(): Promise<void> {
    if (this.relistenTimer) clearTimeout(this.relistenTimer);
    await this.client?.end().catch(() => undefined);
  }

  private onLost(client: pg.Client, error: Error | undefined): void {
    if (this.client === client) this.client = undefined;
    if (this.settings.isStopped()) return;
    this.settings.logger.warn({ err: error }, 'outbox relay: LISTEN connection lost; polling until it is back');
    this.scheduleRelisten();
  }

  private scheduleRelisten(): void {
    this.failures += 1;
    this.relistenTimer = setTimeout(
      () => {
        this.relistenTimer = undefined;
        if (this.settings.isStopped()) return;
        this.listen().catch((error: unknown) => {
          if (this.settings.isStopped()) return;
          this.settings.logger.warn({ err: error }, 'outbox relay: could not LISTEN; polling meanwhile');
          this.scheduleRelisten();
        });
      },
      backoffDelay(this.settings.backoff, this.failures),
    );
  }
}

/**
 * A connected client that LISTENs on the outbox channel. `onLost` is called once, and only for a
 * connection that was listening: before LISTEN answered, a failure is the caller's (this rejects).
 */
async function openListenConnection(
  connection: pg.ClientConfig,
  onNotify: () => void,
  onLost: (client: pg.Client, error: Error | undefined) => void,
): Promise<pg.Client> {
  // A server that accepts the connection and then stalls must not hold start-up past its wait.
  const client = new pg.Client({ ...connection, query_timeout: 10_000 });
  let state: 'opening' | 'listening' | 'lost' = 'opening';
  const lose = (error?: Error): void => {
    if (state !== 'listening') return;
    state = 'lost';
    client.end().catch(() => undefined);
    onLost(client, error);
  };
  client.on('notification', () => onNotify());
  client.on('error', lose);
  client.on('end', () => lose());
  try {
    await client.connect();
    await client.query(`LISTEN ${OUTBOX_CHANNEL}`);
  } catch (error) {
    state = 'lost';
    await client.end().catch(() => undefined);
    throw error;
  }
  state = 'listening';
  return client;
}

/** A refusal that waiting cannot mend: wrong password or role (28P01, 28000), no such database (3D000). */
function isMisconfiguration(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '28P01' || code === '28000' || code === '3D000';
}

/**
 * Start-up: LISTEN, retried with back-off for up to `startWaitMs` (a database slow to accept one
 * connection must not fail the service's start); rejects at once on a misconfiguration.
 */
export async function listenAtStart(
  listener: OutboxListener,
  settings: { startWaitMs: number; backoff: BackoffSettings; logger: Logger },
): Promise<void> {
  const startDeadline = Date.now() + settings.startWaitMs;
  for (let attempt = 1; ; attempt += 1) {
    try {
      await listener.listen();
      return;
    } catch (error) {
      const delayMs = backoffDelay(settings.backoff, attempt);
      if (Date.now() + delayMs > startDeadline || isMisconfiguration(error)) throw error;
      settings.logger.warn({ err: error, attempt }, 'outbox relay: could not LISTEN at start; trying again');
      await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
  }
}
