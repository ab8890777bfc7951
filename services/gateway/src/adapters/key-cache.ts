import { sharedCalls } from '@hc/batching';
import type { Logger } from '@hc/logging';
import type { KeyDirectory, KeyEntry } from '../use-cases/authenticate.ts';
import type { KeyDirectoryClient } from './key-directory-client.ts';

export interface KeyCacheOptions {
  /** Longest an entry is used without being read again (a second safety net; the change feed does the work). */
  ttlMs?: number;
  /** Most keys kept; the oldest entry makes room for a new one. */
  maxEntries?: number;
  now?: () => number;
}

type Entry = { value: KeyEntry; storedAt: number };

/**
 * Keys and their accounts, cached per gateway process and dropped when the accounts context's change
 * feed names the key or its account (docs/adr/0085, which replaces ADR 0027's LISTEN).
 *
 * "Next request" is exact, not merely fast: before a cached entry is used, the request waits for a
 * sync — one KeyDirectoryService.Changes(after = the position applied) call that started after the
 * request arrived. Accounts answers a write only after it committed the change row, and positions
 * become visible in order, so every revocation or suspension answered before the request is in that
 * answer. Concurrent requests share one sync (at most one in flight and one queued: @hc/batching's
 * sharedCalls, docs/batching.md), so it costs one small round trip per batch of requests instead of
 * a key-and-account read per request.
 *
 * While accounts does not answer a sync, nothing cached is used: each request asks accounts itself
 * (and fails 503 service_unavailable when that fails too). Nothing is lost meanwhile: the next sync
 * lists every change after the position applied.
 *
 * A lookup that raced a change must not store what it read before the change: each answer carries the
 * position it reflects, and is stored only if the cache has applied no change after it.
 */
export class KeyCache implements KeyDirectory {
  private readonly entries = new Map<string, Entry>();
  private readonly byAccount = new Map<string, Set<string>>();
  /** The change position applied; undefined until the first sync answered. */
  private applied: bigint | undefined;
  /** False from a failed sync until one succeeds: cached entries are not used meanwhile. */
  private reachable = false;
  /** A failure was logged and no sync succeeded since (one warning per outage). */
  private failing = false;
  private stopped = false;
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;
  private readonly directory: KeyDirectoryClient;
  private readonly logger: Logger;

  constructor(directory: KeyDirectoryClient, logger: Logger, options: KeyCacheOptions = {}) {
    this.directory = directory;
    this.logger = logger;
    this.ttlMs = options.ttlMs ?? 60_000;
    this.maxEntries = options.maxEntries ?? 10_000;
    this.now = options.now ?? Date.now;
  }

  /** Takes the current position. If accounts cannot be reached now, the gateway still starts (requests ask accounts). */
  async start(): Promise<void> {
    await this.synced();
  }

  /** True while syncs succeed, i.e. while cached entries may be used. */
  get active(): boolean {
    return this.reachable;
  }

  /**
   * The cached entry for this key as it stands now, without a sync: a guess that may be a change
   * behind. Only a caller that will still wait for findKeyByHash, and act on the guess only if that
   * agrees, may use it (docs/adr/0067).
   */
  peekKeyByHash(keyHash: string): KeyEntry | undefined {
    if (!this.reachable) return undefined;
    const entry = this.entries.get(keyHash);
    return entry && this.now() - entry.storedAt < this.ttlMs ? entry.value : undefined;
  }

  async findKeyByHash(keyHash: string): Promise<KeyEntry | null> {
    if (this.entries.has(keyHash) && (await this.synced())) {
      const entry = this.entries.get(keyHash);
      if (entry && this.now() - entry.storedAt < this.ttlMs) return entry.value;
    }
    const { found, position } = await this.directory.findKeyByHash(keyHash);
    if (found && this.reachable && this.applied !== undefined && position >= this.applied) this.remember(keyHash, found);
    return found;
  }

  /** Forgets everything; from now on every lookup asks accounts. */
  stop(): void {
    this.stopped = true;
    this.reachable = false;
    this.forgetAll();
  }

  /**
   * Resolves true once a sync that started after this call has answered (so every change answered
   * before the call has been applied); false if it could not. With none in flight, the sync starts at
   * the end of this turn of the event loop, shared by every request read in the turn; with one in
   * flight (it may have started before this request), the request waits for the one after it.
   */
  private readonly synced = sharedCalls<void, boolean>(
    () => this.sync(),
    () => 'sync',
    1,
  );

  private async sync(): Promise<boolean> {
    try {
      const answer = await this.directory.changes(this.applied);
      if (answer.reset || this.applied === undefined) this.forgetAll();
      for (const change of answer.changes) {
        if (change.keyHash !== undefined) this.forgetKey(change.keyHash);
        if (change.accountId !== undefined) this.forgetAccount(change.accountId);
      }
      this.applied = answer.position;
      if (this.stopped) return false;
      if (this.failing) this.logger.info('key cache: accounts answers again; cached keys are used again');
      this.failing = false;
      this.reachable = true;
      return true;
    } catch (error) {
      if (!this.failing) this.logger.warn({ err: error }, 'key cache: accounts unreachable; every request asks accounts until it answers');
      this.failing = true;
      this.reachable = false;
      return false;
    }
  }

  private remember(keyHash: string, value: KeyEntry): void {
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

  private forgetAccount(accountId: string): void {
    for (const keyHash of this.byAccount.get(accountId) ?? []) this.forgetKey(keyHash);
  }

  private forgetAll(): void {
    this.entries.clear();
    this.byAccount.clear();
  }
}
