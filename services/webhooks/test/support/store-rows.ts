// Rows and transactions for the store tests that race real code on PostgreSQL.
import type { Scope } from '../../src/domain/endpoint.ts';
import type { Prisma } from '../../src/store/generated/prisma/client.ts';
import type { WebhooksPrisma } from '../../src/store/prisma.ts';

/** An enabled endpoint taking every event type, written straight to its table. */
export async function insertEndpoint(prisma: WebhooksPrisma, id: string, scope: Scope, now: Date): Promise<void> {
  await prisma.webhookEndpoint.create({
    data: {
      id,
      accountId: scope.accountId,
      livemode: scope.livemode,
      url: 'https://shop.example/hook',
      enabledEvents: ['*'],
      status: 'enabled',
      createdAt: now,
      updatedAt: now,
    },
  });
}

/**
 * Runs `work` in a transaction of `client` and keeps it open (its locks held) until `commit` is
 * called; resolves once `work` is done, so the caller can start what must meet those locks.
 */
export async function heldTransaction<T>(
  client: WebhooksPrisma,
  work: (tx: Prisma.TransactionClient) => Promise<T>,
): Promise<{ commit: () => void; finished: Promise<T> }> {
  let commit!: () => void;
  const released = new Promise<void>((resolve) => (commit = resolve));
  let worked!: () => void;
  const workDone = new Promise<void>((resolve) => (worked = resolve));
  const finished = client.$transaction(
    async (tx) => {
      const result = await work(tx);
      worked();
      await released;
      return result;
    },
    { timeout: 20_000 },
  );
  await Promise.race([workDone, finished]);
  return { commit, finished };
}
