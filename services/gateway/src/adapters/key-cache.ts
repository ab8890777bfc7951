import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '@hc/logging';
import type { KeyDirectory, KeyEntry } from '../use-cases/authenticate.ts';
import type { KeyDirectoryClient } from './key-directory-client.ts';

export interface KeyCacheOptions {
  /** Longest an entry is used without being read again (a second safety net; the lease does the work). */
  ttlMs?: number;
  /** Most keys kept; the oldest entry makes room for a new one. */
  maxEntries?: number;
  now?: () => number;
  /** The lease asked for (accounts may grant less): the longest a change waits for this cache once it stops. */
  leaseMs?: number;
  /** Time between renewals while nothing changes: about the longest a change waits for this cache. */
  renewEveryMs?: number;
  /**
   * With no lookup for this long, the cache gives its lease back and renews no more until the next
   * lookup (docs/adr/0116): an idle gateway costs accounts nothing. Default 10 s.
   */
  idleAfterMs?: number;
}

type Entry = { value: KeyEntry; storedAt: number };

/**
 * The lease ends this much before it would by the time it was asked for: accounts counts it from when
 * it received the request (later) on its database's clock, rounded to the millisecond.
 */
const LEASE_MARGIN_MS = 50;
/** The shortest deadline a renewal is given, whatever the lease (a test's short lease included). */
const MIN_RENEWAL_TIMEOUT_MS = 100;
/** How long stopping waits to give the lease back before it leaves it to run out. */
const RELEASE_WAIT_MS = 1_000;

/**
 * Keys and their accounts, cached per gateway process under a lease from the accounts context
 * (docs/adr/0108, which replaces ADR 0085's sync before each use).
 *
 * "Next request" is exact, not merely fast. The cache renews its lease about ten times a second
 * (KeyDirectoryService.HoldLease), reporting the change position it has applied and applying the
 * changes after it that the answer lists. Accounts answers a change to a key or an account only once
 * every cache whose lease has not run out has reported applying it. So while this cache's lease runs,
 * every change answered before a request is already applied when the request arrives, and a cached
 * entry is used at once, with no round trip. The lease is counted from when the renewal was sent, so it
 * ends here before accounts stops waiting for it.
 *
 * While the cache holds no lease (accounts does not answer, or the cache has just started), nothing
 * cached is used: each request asks accounts itself (and fails 503 service_unavailable when that fails
 * too). Nothing is lost meanwhile: the next renewal lists every change after the position applied.
 *
 * A cache that no lookup used for `idleAfterMs` rests (docs/adr/0116): it gives its lease back and
 * renews no more until the next lookup, which asks accounts itself and starts the renewals again.
 *
 * A lookup that raced a change must not store what it read before the change: each answer carries the
 * position it reflects, and is stored only if the cache has applied no change after it.
 */
export class KeyCache implements KeyDirectory {
  private readonly entries = new Map<string, Entry>();
  private readonly byAccount = new Map<string, Set<string>>();
  /** This process's cache, as accounts knows its lease. */
  private readonly cacheId = randomUUID();
  /** The change position applied; undefined until the first renewal answered. */
  private applied: bigint | undefined;
  /**
   * When the lease runs out, by both clocks: the monotonic one (a step of the wall clock does not
   * stretch it) and the wall clock (the monotonic one stands still while the host is suspended). 0
   * while none is held.
   */
  private leaseEnds = { monotonic: 0, wall: 0 };
  /** Calls made so far: each HoldLease call carries the next number. */
  private renewals = 0n;
  /** A failure was logged and no renewal succeeded since (one warning per outage). */
  private failing = false;
  private readonly stopping = new AbortController();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;
  private readonly leaseMs: number;
  private readonly renewEveryMs: number;
  private readonly idleAfterMs: number;
  /** When a lookup last used the cache (performance.now()). */
  private lastUsed = performance.now();
  /** Set while the cache rests (no lease, no renewals): the next lookup calls it. */
  private wakeFromRest: (() => void) | undefined;
  private readonly directory: KeyDirectoryClient;
  private readonly logger: Logger;

  constructor(directory: KeyDirectoryClient, logger: Logger, options: KeyCacheOptions = {}) {
    this.directory = directory;
    this.logger = logger;
    this.ttlMs = options.ttlMs ?? 60_000;
    this.maxEntries = options.maxEntries ?? 10_000;
    this.now = options.now ?? Date.now;
    this.leaseMs = options.leaseMs ?? 2_000;
    this.renewEveryMs = options.renewEveryMs ?? 100;
    this.idleAfterMs = options.idleAfterMs ?? 10_000;
  }

  /** Takes a lease, then keeps it. If accounts cannot be reached now, the gateway still starts (requests ask accounts). */
  async start(): Promise<void> {
    const changed = await this.renew();
    void this.keepRenewing(changed);
  }

  /** True while the lease is held, i.e. while cached entries may be used. */
  get active(): boolean {
    return this.leaseHeld();
  }

  /** What findKeyByHash would answer from memory now, with no call: for inspection (tests, tools). */
  peekKeyByHash(keyHash: string): KeyEntry | undefined {
    this.used();
    return this.leaseHeld() ? this.fresh(keyHash) : undefined;
  }

  async findKeyByHash(keyHash: string): Promise<KeyEntry | null> {
    this.used();
    const cached = this.leaseHeld() ? this.fresh(keyHash) : undefined;
    if (cached) return cached;
    const { found, position } = await this.directory.findKeyByHash(keyHash);
    if (found && this.leaseHeld() && this.applied !== undefined && position >= this.applied) this.remember(keyHash, found);
    return found;
  }

  /**
   * Forgets everything and stops renewing; from now on every lookup asks accounts. Then gives the lease
   * back (a lease of 0 ms), so that no change waits for a cache that is gone; if that fails, the lease
   * runs out on its own.
   */
  async stop(): Promise<void> {
    this.stopping.abort();
    this.endLease();
    this.forgetAll();
    if (this.renewals === 0n) return; // never asked for one
    // Numbered after every renewal, so none of them, however late it lands, revives the lease.
    const release = this.call(0, RELEASE_WAIT_MS).catch(() => undefined);
    await Promise.race([release, sleep(RELEASE_WAIT_MS, undefined, { ref: false })]);
  }

  /** A lookup: keeps the lease renewed, or wakes a resting cache (this lookup itself asks accounts). */
  private used(): void {
    this.lastUsed = performance.now();
    this.wakeFromRest?.();
  }

  private leaseHeld(): boolean {
    return performance.now() < this.leaseEnds.monotonic && Date.now() < this.leaseEnds.wall;
  }

  private endLease(): void {
    this.leaseEnds = { monotonic: 0, wall: 0 };
  }

  private call(leaseMs: number, timeoutMs: number): ReturnType<KeyDirectoryClient['holdLease']> {
    this.renewals += 1n;
    return this.directory.holdLease({ cacheId: this.cacheId, applied: this.applied, leaseMs, renewal: this.renewals, timeoutMs });
  }

  private fresh(keyHash: string): KeyEntry | undefined {
    const entry = this.entries.get(keyHash);
    return entry && this.now() - entry.storedAt < this.ttlMs ? entry.value : undefined;
  }

  /**
   * Renews until stopped: at once after an answer with changes (accounts waits for this report), else
   * after a pause; rests while no lookup comes.
   */
  private async keepRenewing(changed: boolean): Promise<void> {
    while (!this.stopping.signal.aborted) {
      try {
        await sleep(changed ? 0 : this.renewEveryMs, undefined, { signal: this.stopping.signal, ref: false });
      } catch {
        return; // stopped
      }
      if (!changed && performance.now() - this.lastUsed > this.idleAfterMs && !(await this.restUntilUsed())) return;
      changed = await this.renew();
    }
  }

  /**
   * No lookup for idleAfterMs: stops using what is cached, then gives the lease back (in that order, so
   * nothing is used once a change no longer waits for this cache), and waits for the next lookup. What
   * is cached stays: the next renewal lists every change after the position applied, as after an
   * outage. False when the cache was stopped meanwhile.
   */
  private async restUntilUsed(): Promise<boolean> {
    const { signal } = this.stopping;
    this.endLease();
    let wake!: () => void;
    const woken = new Promise<void>((resolve) => (wake = resolve));
    this.wakeFromRest = wake;
    // Removed again below: a gateway that rests many times must not pile listeners on the signal.
    signal.addEventListener('abort', wake, { once: true });
    try {
      this.logger.debug('key cache: no lookup for a while; lease given back until the next one');
      await this.call(0, RELEASE_WAIT_MS).catch(() => undefined);
      await woken;
    } finally {
      signal.removeEventListener('abort', wake);
      this.wakeFromRest = undefined;
    }
    return !signal.aborted;
  }

  /** One renewal; true when it applied a change (so the next one, which reports it, should go at once). */
  private async renew(): Promise<boolean> {
    const sent = { monotonic: performance.now(), wall: Date.now() };
    try {
      // Answered later than the lease would run, a renewal is of no use: its deadline is the lease's.
      const answer = await this.call(this.leaseMs, Math.max(this.leaseMs - LEASE_MARGIN_MS, MIN_RENEWAL_TIMEOUT_MS));
      if (this.stopping.signal.aborted) return false;
      if (answer.reset || this.applied === undefined) this.forgetAll();
      for (const change of answer.changes) {
        if (change.keyHash !== undefined) this.forgetKey(change.keyHash);
        if (change.accountId !== undefined) this.forgetAccount(change.accountId);
      }
      this.applied = answer.position;
      const lasts = answer.leaseMs - LEASE_MARGIN_MS;
      this.leaseEnds = { monotonic: sent.monotonic + lasts, wall: sent.wall + lasts };
      if (this.failing) this.logger.info('key cache: accounts answers again; cached keys are used again');
      this.failing = false;
      return answer.changes.length > 0 || answer.reset;
    } catch (error) {
      this.endLease();
      if (!this.failing)
        this.logger.warn({ err: error }, 'key cache: accounts granted no lease; every request asks accounts until it does');
      this.failing = true;
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
