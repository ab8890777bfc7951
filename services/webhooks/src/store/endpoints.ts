import { isUniqueViolation } from '@hc/db';
import type { SecretBox } from '@hc/secrets';
import type { DisabledReason, EndpointStatus, Scope, WebhookEndpoint } from '../domain/endpoint.ts';
import { cancelOpenDeliveries } from './delivery-writes.ts';
import type { Prisma } from './generated/prisma/client.ts';
import type { WebhooksPrisma } from './prisma.ts';
import { nextSecretId, SecretSealing } from './secret-sealing.ts';

type Row = Prisma.WebhookEndpointGetPayload<object>;
type Tx = Prisma.TransactionClient;

export function toEndpoint(row: Row): WebhookEndpoint {
  return {
    id: row.id,
    accountId: row.accountId,
    livemode: row.livemode,
    url: row.url,
    description: row.description,
    enabledEvents: row.enabledEvents,
    status: row.status as EndpointStatus,
    disabledReason: row.disabledReason as DisabledReason | null,
    disabledAt: row.disabledAt,
    failingSince: row.failingSince,
    lastSuccessAt: row.lastSuccessAt,
    createdAt: row.createdAt,
  };
}

/**
 * Locks endpoint rows (in id order) for the rest of the caller's transaction, before any delivery row
 * of theirs is touched: every transaction that changes an endpoint and its deliveries takes the
 * endpoint first, so two of them cannot deadlock (one disabling it and cancelling the deliveries the
 * other is finishing), and what is read from the endpoint afterwards stays true until the commit. NO
 * KEY UPDATE: new deliveries and secrets referencing the endpoint are not held up.
 */
export async function lockEndpoints(tx: Tx, endpointIds: readonly string[]): Promise<void> {
  if (endpointIds.length === 0) return;
  await tx.$queryRaw`SELECT 1 FROM webhook_endpoints WHERE id = ANY(${[...new Set(endpointIds)].sort()}) ORDER BY id FOR NO KEY UPDATE`;
}

/**
 * Locks an endpoint that is about to be disabled or deleted, before its open deliveries are cancelled.
 * FOR UPDATE, unlike lockEndpoints: it waits for every transaction still queueing a delivery to the
 * endpoint (they hold it FOR KEY SHARE, see queueDeliveryRows), so the cancel that follows sees their
 * deliveries, and holds back those that come later until the removal is committed (they then skip
 * the endpoint). Without it a delivery queued at that moment would stay pending for good.
 */
export async function lockEndpointForRemoval(tx: Tx, endpointId: string): Promise<void> {
  await tx.$queryRaw`SELECT 1 FROM webhook_endpoints WHERE id = ${endpointId} FOR UPDATE`;
}

/**
 * A removal's transaction may wait for FOR KEY SHARE holders: new fan-outs join them without queueing
 * behind the removal, so under a steady stream of events it can wait past Prisma's default 5 s.
 */
export const REMOVAL_TRANSACTION = { timeout: 30_000 };

/** Disables an endpoint (inside a caller's transaction) and cancels its unfinished deliveries. */
export async function disableEndpoint(tx: Tx, endpointId: string, reason: DisabledReason, now: Date): Promise<void> {
  await lockEndpointForRemoval(tx, endpointId);
  await tx.webhookEndpoint.update({
    where: { id: endpointId },
    data: { status: 'disabled', disabledReason: reason, disabledAt: now, updatedAt: now },
  });
  await cancelOpenDeliveries(tx, endpointId, now);
}

export interface EndpointPatch {
  url?: string;
  description?: string | null;
  enabledEvents?: string[];
}

/**
 * The only code that knows the webhook_endpoints and endpoint_secrets tables. Signing secrets are
 * stored sealed (AES-256-GCM, bound to their row: docs/adr/0042) and opened only to sign.
 */
export class EndpointStore {
  private readonly prisma: WebhooksPrisma;
  /** Sealing, opening and re-encrypting the endpoint_secrets.secret column. */
  readonly secrets: SecretSealing;

  constructor(prisma: WebhooksPrisma, box: SecretBox) {
    this.prisma = prisma;
    this.secrets = new SecretSealing(prisma, box);
  }

  async create(
    scope: Scope,
    endpoint: { id: string; url: string; description: string | null; enabledEvents: string[] },
    secret: string,
    now: Date,
  ): Promise<WebhookEndpoint> {
    const secretId = await nextSecretId(this.prisma);
    const row = await this.prisma.webhookEndpoint.create({
      data: {
        ...endpoint,
        accountId: scope.accountId,
        livemode: scope.livemode,
        status: 'enabled',
        createdAt: now,
        updatedAt: now,
        secrets: { create: { id: secretId, secret: this.secrets.seal(secret, endpoint.id, secretId), createdAt: now } },
      },
    });
    return toEndpoint(row);
  }

  /**
   * `create` for an id chosen by the caller (the gateway's idempotent creates): null, and nothing
   * written, when an endpoint (of any account, deleted or not) already has that id.
   */
  async createUnlessTaken(
    scope: Scope,
    endpoint: { id: string; url: string; description: string | null; enabledEvents: string[] },
    secret: string,
    now: Date,
  ): Promise<WebhookEndpoint | null> {
    try {
      return await this.create(scope, endpoint, secret, now);
    } catch (error) {
      if (isUniqueViolation(error)) return null;
      throw error;
    }
  }

  async list(scope: Scope): Promise<WebhookEndpoint[]> {
    const rows = await this.prisma.webhookEndpoint.findMany({
      where: { accountId: scope.accountId, livemode: scope.livemode, deletedAt: null },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    });
    return rows.map(toEndpoint);
  }

  /** The endpoint when it is the caller's, in the caller's mode, and not deleted. */
  async find(scope: Scope, id: string): Promise<WebhookEndpoint | null> {
    const row = await this.prisma.webhookEndpoint.findFirst({
      where: { id, accountId: scope.accountId, livemode: scope.livemode, deletedAt: null },
    });
    return row ? toEndpoint(row) : null;
  }

  async update(id: string, patch: EndpointPatch, now: Date): Promise<WebhookEndpoint> {
    return toEndpoint(await this.prisma.webhookEndpoint.update({ where: { id }, data: { ...patch, updatedAt: now } }));
  }

  async setStatus(id: string, status: EndpointStatus, now: Date): Promise<WebhookEndpoint> {
    return this.prisma.$transaction(async (tx) => {
      if (status === 'disabled') await disableEndpoint(tx, id, 'operator', now);
      else {
        await tx.webhookEndpoint.update({
          where: { id },
          data: { status: 'enabled', disabledReason: null, disabledAt: null, failingSince: null, updatedAt: now },
        });
      }
      return toEndpoint(await tx.webhookEndpoint.findUniqueOrThrow({ where: { id } }));
    }, REMOVAL_TRANSACTION);
  }

  async softDelete(id: string, now: Date): Promise<void> {
    await this.prisma.$transaction(async (tx) => {
      await lockEndpointForRemoval(tx, id);
      await tx.webhookEndpoint.update({ where: { id }, data: { deletedAt: now, updatedAt: now } });
      await cancelOpenDeliveries(tx, id, now);
    }, REMOVAL_TRANSACTION);
  }

  /**
   * Adds `secret` as the current one. Secrets still signing keep signing until `previousExpiresAt`
   * at the latest (one that already ends sooner keeps its end).
   */
  async rotateSecret(id: string, secret: string, now: Date, previousExpiresAt: Date): Promise<void> {
    await this.prisma.$transaction(async (tx) => {
      // One rotation of an endpoint at a time: a second one running alongside could not see the
      // first's new secret to set its end, and two secrets would stay current for good.
      await lockEndpoints(tx, [id]);
      await tx.endpointSecret.updateMany({ where: { endpointId: id, expiresAt: null }, data: { expiresAt: previousExpiresAt } });
      await tx.endpointSecret.updateMany({
        where: { endpointId: id, expiresAt: { gt: previousExpiresAt } },
        data: { expiresAt: previousExpiresAt },
      });
      const secretId = await nextSecretId(tx);
      await tx.endpointSecret.create({
        data: { id: secretId, endpointId: id, secret: this.secrets.seal(secret, id, secretId), createdAt: now },
      });
    });
  }

  /** The newest secret that signs at `now`, decrypted: what a replayed create answers. */
  async currentSecret(endpointId: string, now: Date): Promise<string> {
    const [newest] = await this.signingSecrets(endpointId, now);
    if (newest === undefined) throw new Error(`webhook endpoint ${endpointId} has no signing secret`);
    return newest;
  }

  /** Secrets that sign at `now`, newest first, decrypted. */
  async signingSecrets(endpointId: string, now: Date): Promise<string[]> {
    const rows = await this.prisma.endpointSecret.findMany({
      where: { endpointId, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] },
      orderBy: { id: 'desc' },
      select: { id: true, secret: true },
    });
    return rows.map((r) => this.secrets.open(r.secret, endpointId, r.id));
  }
}
