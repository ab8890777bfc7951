import pg from 'pg';
import type { Logger } from '@hc/logging';
import type { ApiKeyRecord, MerchantAccount } from '../domain/merchant-account.ts';

/** What authentication needs from the keys table: the key with this hash and its account. */
export interface KeyLookup {
  findKeyByHash(keyHash: string): Promise<{ key: ApiKeyRecord; account: MerchantAccount } | null>;
}

/** The channel the migration's triggers announce key and account changes on (payload "key:<hash>" / "account:<id>"). */
export const KEY_CHANGES_CHANNEL = 'gateway_keys';
/** The listener's application_name (pg_stat_activity), so operators and tests can find it. */
export const KEY_CACHE_APPLICATION_NAME = 'hc-gateway-key-cache';

export interface KeyCacheOptions {
  /** Longest an entry is used without a change notice (a second safety net; notices do the work). */
  ttlMs?: number;
  /** Most keys kept; the oldest entry makes room for a new one. */
  maxEntries?: number;
  now?: () => number;
}

type Entry = { value: { key: ApiKeyRecord; account: MerchantAccount }; storedAt: number };

/**
 * Keys and their accounts, cached per gateway process and dropped the moment PostgreSQL announces a
 * change to the key or its account (LISTEN on KEY_CHANGES_CHANNEL, fed by triggers, so every writer
 * is covered). The cache is used only while the LISTEN connection is up: when it drops, everything
 * cached is forgotten and every request reads the database until LISTEN is back (docs/adr/0027).
 *
 * "Next request" is exact, not merely fast: before a cached entry is used, the request waits for a
 * sync — a trivial query on the LISTEN connection that started after the request arrived. PostgreSQL
 * delivers every notice committed before that query on the connection before its answer, so a
 * revocation or suspension committed before the request is always seen. Concurrent requests share
 * one sync (at most one in flight and one queued), so it costs one tiny round trip per batch of
 * requests instead of a key-and-account read per request.
 *
 * A lookup that raced a change notice must not store what it read before the change: each notice
 * bumps `generation`, and a read stores its answer only if no notice arrived while it ran.
 */
export class KeyCache implements KeyLookup {
  private readonly entries = new Map<string, Entry>();
  private readonly byAccount = new Map<string, Set<string>>();
  private generation = 0;
  private listening = false;
  private listener: pg.Client | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private failures = 0;
  private stopped = false;
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;

  private readonly store: KeyLookup;
  private readonly databaseUrl: string;
  private readonly logger: Logger;

  constructor(store: KeyLookup, databaseUrl: string, logger: Logger, options: KeyCacheOptions = {}) {
    this.store = store;
    this.databaseUrl = databaseUrl;
    this.logger = logger;
    this.ttlMs = options.ttlMs ?? 60_000;
    this.maxEntries = options.maxEntries ?? 10_000;
    this.now = options.now ?? Date.now;
  }

  /**
   * Connects the listener. If PostgreSQL cannot be reached now, the gateway still starts: it reads
   * the database on every request and keeps trying to LISTEN in the background.
   */
  async start(): Promise<void> {
    try {
      await this.listen();
    } catch (error) {
      this.logger.warn({ err: error }, 'key cache: could not LISTEN; every request reads the database meanwhile');
      this.scheduleRelisten();
    }
  }

  /** True while change notices arrive, i.e. while cached entries may be used. */
  get active(): boolean {
    return this.listening;
  }

  /**
   * The cached entry for this key as it stands now, without a sync: a guess that may be a notice
   * behind. Only a caller that will still wait for findKeyByHash, and act on the guess only if that
   * agrees, may use it (docs/adr/0067).
   */
  peekKeyByHash(keyHash: string): { key: ApiKeyRecord; account: MerchantAccount } | undefined {
    if (!this.listening) return undefined;
    const entry = this.entries.get(keyHash);
    return entry && this.now() - entry.storedAt < this.ttlMs ? entry.value : undefined;
  }

  async findKeyByHash(keyHash: string): Promise<{ key: ApiKeyRecord; account: MerchantAccount } | null> {
    if (this.listening && this.entries.has(keyHash) && (await this.synced())) {
      const entry = this.entries.get(keyHash);
      if (entry && this.now() - entry.storedAt < this.ttlMs) return entry.value;
    }
    const generation = this.generation;
    const found = await this.store.findKeyByHash(keyHash);
    if (found && this.listening && generation === this.generation) this.remember(keyHash, found);
    return found;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    this.forgetAll();
    await this.listener?.end().catch(() => undefined);
  }

  private inFlight: Promise<boolean> | undefined;
  private queued: Promise<boolean> | undefined;
  /** A sync that starts at the end of this turn of the event loop (none in flight when it was asked). */
  private atEndOfTurn: Promise<boolean> | undefined;

  /**
   * Resolves true once a sync query that started after this call has answered on the LISTEN
   * connection (so every notice committed before the call has been applied); false if it could not.
   * With none in flight, the sync starts at the end of this turn of the event loop, shared by every
   * request read in the turn (docs/adr/0072).
   */
  private synced(): Promise<boolean> {
    if (this.atEndOfTurn) return this.atEndOfTurn;
    if (!this.inFlight) {
      this.atEndOfTurn = new Promise((resolve) =>
        setImmediate(() => {
          this.atEndOfTurn = undefined;
          resolve(this.startSync());
        }),
      );
      return this.atEndOfTurn;
    }
    // The sync in flight may have started before this request: wait for the one after it.
    this.queued ??= this.inFlight.then(() => {
      this.queued = undefined;
      return this.startSync();
    });
    return this.queued;
  }

  private startSync(): Promise<boolean> {
    const running = this.sync().finally(() => {
      if (this.inFlight === running) this.inFlight = undefined;
    });
    this.inFlight = running;
    return running;
  }

  private async sync(): Promise<boolean> {
    const listener = this.listener;
    if (!listener || !this.listening) return false;
    try {
      await listener.query('SELECT 1');
      return this.listening && this.listener === listener;
    } catch {
      return false;
    }
  }

  private remember(keyHash: string, value: Entry['value']): void {
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.forgetKey(oldest);
    }
    this.entries.delete(keyHash);
    this.entries.set(keyHash, { value, storedAt: this.now() });
    const hashes = this.byAccount.get(value.account.id) ?? new Set<string>();
    hashes.add(keyHash);
    this.byAccount.set(value.account.id, hashes);
  }

  private forgetKey(keyHash: string): void {
    const entry = this.entries.get(keyHash);
    if (!entry) return;
    this.entries.delete(keyHash);
    const hashes = this.byAccount.get(entry.value.account.id);
    hashes?.delete(keyHash);
    if (hashes?.size === 0) this.byAccount.delete(entry.value.account.id);
  }

  private forgetAll(): void {
    this.generation += 1;
    this.entries.clear();
    this.byAccount.clear();
  }

  private onNotice(payload: string | undefined): void {
    this.generation += 1;
    if (payload?.startsWith('key:')) {
      this.forgetKey(payload.slice(4));
    } else if (payload?.startsWith('account:')) {
      for (const keyHash of this.byAccount.get(payload.slice(8)) ?? []) this.forgetKey(keyHash);
    } else {
      this.forgetAll();
    }
  }

  private async listen(): Promise<void> {
    const client = new pg.Client({ connectionString: this.databaseUrl, application_name: KEY_CACHE_APPLICATION_NAME });
    let lost = false;
    const onLost = (error?: Error): void => {
      if (lost) return;
      lost = true;
      // Notices may be missed from now on: stop using the cache before anything else runs.
      this.listening = false;
      this.forgetAll();
      if (this.listener === client) this.listener = undefined;
      client.end().catch(() => undefined);
      if (this.stopped) return;
      this.logger.warn({ err: error }, 'key cache: LISTEN connection lost; every request reads the database until it is back');
      this.scheduleRelisten();
    };
    client.on('notification', (message) => this.onNotice(message.payload));
    client.on('error', onLost);
    client.on('end', () => onLost());
    try {
      await client.connect();
      await client.query(`LISTEN ${KEY_CHANGES_CHANNEL}`);
    } catch (error) {
      lost = true;
      await client.end().catch(() => undefined);
      throw error;
    }
    this.failures = 0;
    this.listener = client;
    // Changes made while nobody listened are unknown: start empty.
    this.forgetAll();
    this.listening = true;
  }

  private scheduleRelisten(): void {
    this.failures += 1;
    const delayMs = Math.min(10_000, 100 * 2 ** (this.failures - 1));
    this.retryTimer = setTimeout(() => {
      if (this.stopped) return;
      this.listen().catch((error: unknown) => {
        if (this.stopped) return;
        this.logger.warn({ err: error }, 'key cache: could not LISTEN; every request reads the database meanwhile');
        this.scheduleRelisten();
      });
    }, delayMs);
    this.retryTimer.unref();
  }
}
