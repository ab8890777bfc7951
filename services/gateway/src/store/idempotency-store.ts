import type { GatewayPrisma } from './prisma.ts';

export interface IdempotencyScope {
  readonly accountId: string;
  readonly livemode: boolean;
  readonly key: string;
}

export interface IdempotencyRecord {
  readonly requestHash: string;
  readonly sessionId: string;
  readonly state: 'running' | 'done';
  readonly lockedUntil: Date;
  readonly expiresAt: Date;
}

/**
 * The only code that knows idempotency_records. Claiming a key is one INSERT … ON CONFLICT DO NOTHING,
 * so across every gateway process exactly one request owns a key at a time.
 */
export class IdempotencyStore {
  private readonly prisma: GatewayPrisma;

  constructor(prisma: GatewayPrisma) {
    this.prisma = prisma;
  }

  /** Inserts a running record; false when the key is already taken. */
  async claim(scope: IdempotencyScope, record: IdempotencyRecord, now: Date): Promise<boolean> {
    // An expired record for this key is gone first: an old key makes a new session.
    await this.prisma.idempotencyRecord.deleteMany({ where: { ...scope, expiresAt: { lte: now } } });
    const inserted = await this.prisma.$executeRaw`
      INSERT INTO idempotency_records (account_id, livemode, key, request_hash, session_id, state, locked_until, created_at, expires_at)
      VALUES (${scope.accountId}, ${scope.livemode}, ${scope.key}, ${record.requestHash}, ${record.sessionId}, ${record.state},
              ${record.lockedUntil}, ${now}, ${record.expiresAt})
      ON CONFLICT DO NOTHING`;
    return inserted === 1;
  }

  async find(scope: IdempotencyScope): Promise<IdempotencyRecord | null> {
    const row = await this.prisma.idempotencyRecord.findUnique({ where: { accountId_livemode_key: scope } });
    return row ? { ...row, state: row.state as IdempotencyRecord['state'] } : null;
  }

  /** Takes over a running record whose owner stopped answering (its lock ran out). */
  async takeOver(scope: IdempotencyScope, now: Date, lockedUntil: Date): Promise<boolean> {
    const { count } = await this.prisma.idempotencyRecord.updateMany({
      where: { ...scope, state: 'running', lockedUntil: { lte: now } },
      data: { lockedUntil },
    });
    return count === 1;
  }

  async complete(scope: IdempotencyScope, sessionId: string): Promise<void> {
    await this.prisma.idempotencyRecord.updateMany({ where: { ...scope, sessionId }, data: { state: 'done' } });
  }

  /** Lets the next retry take over at once (the attempt failed in a way that may or may not have created). */
  async release(scope: IdempotencyScope, now: Date): Promise<void> {
    await this.prisma.idempotencyRecord.updateMany({ where: { ...scope, state: 'running' }, data: { lockedUntil: now } });
  }

  /** Forgets the key: the request was refused and is not remembered. */
  async forget(scope: IdempotencyScope, sessionId: string): Promise<void> {
    await this.prisma.idempotencyRecord.deleteMany({ where: { ...scope, sessionId, state: 'running' } });
  }

  async purgeExpired(now: Date): Promise<number> {
    const { count } = await this.prisma.idempotencyRecord.deleteMany({ where: { expiresAt: { lte: now } } });
    return count;
  }
}
