// Risk covered (issue 35, item 7): signing secrets readable by anyone who reads the database — rows
// written before encryption left in plaintext, a secret kept through a rotation's overlap window
// forgotten, a key rotation that strands rows under the old key, or a sealed value copied onto
// another endpoint's row signing there. Real PostgreSQL, NATS and an HTTP receiver.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { newId } from '@hc/ids';
import { createLogger } from '@hc/logging';
import { SecretDecryptError } from '@hc/secrets';
import { TEST_SECRETS_ENCRYPTION_KEYS, testNatsPrefix } from '@hc/test-kit';
import { loadWebhooksConfig } from '../src/config.ts';
import { newSigningSecret } from '../src/domain/signing.ts';
import { startWebhooksService, type RunningWebhooksService } from '../src/webhooks-service.ts';
import { WebhookReceiver } from './support/receiver.ts';
import { startWebhooksStack, testScope, type WebhooksStack } from './support/webhooks-stack.ts';

const logger = createLogger('webhooks-secrets-test', { level: 'silent' });
const ctx = testScope('acct_secrets');
const HOUR = 3_600_000;
const NEW_KEY = `test-2:${Buffer.alloc(32, 2).toString('base64')}`;

let webhooks: WebhooksStack;
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await new WebhookReceiver().start();
  webhooks = await startWebhooksStack(logger, testNatsPrefix('webhooks_secrets'));
});
afterAll(async () => {
  await webhooks.stop();
  await receiver.stop();
});

/** Another process of the service on the same database (a replica, or the next start), with `keys`. */
async function startAnother(keys: string): Promise<RunningWebhooksService> {
  return startWebhooksService({ ...webhooks.config, WEBHOOKS_GRPC_ADDRESS: '127.0.0.1:0', SECRETS_ENCRYPTION_KEYS: keys }, logger);
}

const storedSecrets = async (endpointId: string) =>
  (await webhooks.prisma.endpointSecret.findMany({ where: { endpointId }, orderBy: { id: 'asc' } })).map((r) => r.secret);

/** An endpoint as the version before encryption stored it: its secrets in plaintext, one of them overlapping, one expired. */
async function legacyEndpoint(id: string, path: string): Promise<string[]> {
  const now = new Date();
  const secrets = [newSigningSecret(), newSigningSecret(), newSigningSecret()];
  await webhooks.prisma.webhookEndpoint.create({
    data: {
      id,
      accountId: ctx.accountId,
      livemode: false,
      url: receiver.url(path),
      enabledEvents: ['*'],
      status: 'enabled',
      createdAt: now,
      updatedAt: now,
      secrets: {
        create: [
          { secret: secrets[0]!, createdAt: now, expiresAt: new Date(now.getTime() - HOUR) },
          { secret: secrets[1]!, createdAt: now, expiresAt: new Date(now.getTime() + 24 * HOUR) },
          { secret: secrets[2]!, createdAt: now },
        ],
      },
    },
  });
  return secrets;
}

describe('signing secrets at rest', () => {
  it('the service refuses to start without SECRETS_ENCRYPTION_KEYS, and its config refuses a malformed one', async () => {
    const { SECRETS_ENCRYPTION_KEYS: _unset, ...withoutKeys } = webhooks.config;
    await expect(startWebhooksService(withoutKeys, logger)).rejects.toThrow(/SECRETS_ENCRYPTION_KEYS is not set/);
    expect(() => loadWebhooksConfig({ SECRETS_ENCRYPTION_KEYS: 'k1:c2hvcnQ=' })).toThrow(/must be 32 random bytes/);
  });

  it('a created and a rotated secret are stored sealed, and a ping is signed with both', async () => {
    const created = await webhooks.client.createEndpoint({ url: receiver.url('/new') }, ctx);
    const rotated = await webhooks.client.rotateEndpointSecret({ id: created.endpoint!.id }, ctx);
    const stored = await storedSecrets(created.endpoint!.id);
    expect(stored).toEqual([expect.stringMatching(/^v1:test-1:/), expect.stringMatching(/^v1:test-1:/)]);
    expect(stored.join()).not.toContain(created.secret.slice('whsec_'.length));
    expect(stored.join()).not.toContain(rotated.secret.slice('whsec_'.length));

    receiver.trust(created.secret);
    receiver.trust(rotated.secret);
    const ping = await webhooks.client.sendPing({ endpointId: created.endpoint!.id }, ctx);
    await receiver.waitFor((all) => all.some((d) => d.body.id === ping.event!.id));
    expect(receiver.deliveries.find((d) => d.body.id === ping.event!.id)!.verifiedBy).toEqual(
      expect.arrayContaining([created.secret, rotated.secret]),
    );
  });

  it('plaintext rows from before encryption are sealed at the next start, expired and overlapping ones too, and still sign', async () => {
    const secrets = await legacyEndpoint('we_legacy_plaintext', '/legacy');
    const next = await startAnother(TEST_SECRETS_ENCRYPTION_KEYS);
    try {
      const stored = await storedSecrets('we_legacy_plaintext');
      expect(stored).toEqual(secrets.map(() => expect.stringMatching(/^v1:test-1:/)));
      for (const secret of secrets) expect(stored.join()).not.toContain(secret.slice('whsec_'.length));
      expect(await webhooks.service.deps.endpoints.secrets.countNotCurrent()).toBe(0);

      receiver.trust(secrets[1]!);
      receiver.trust(secrets[2]!);
      const ping = await webhooks.client.sendPing({ endpointId: 'we_legacy_plaintext' }, ctx);
      await receiver.waitFor((all) => all.some((d) => d.body.id === ping.event!.id));
      const delivery = receiver.deliveries.find((d) => d.body.id === ping.event!.id)!;
      // The current and the overlapping secret sign; the expired one does not.
      expect(delivery.verifiedBy.filter((s) => secrets.includes(s)).sort()).toEqual([secrets[1], secrets[2]].sort());
    } finally {
      await next.stop();
    }
  });

  it('after a key rotation (new key first, old one kept) a start moves every row to the new key; they still sign', async () => {
    const secrets = await legacyEndpoint('we_key_rotation', '/rotation');
    const withNewKey = await startAnother(`${NEW_KEY},${TEST_SECRETS_ENCRYPTION_KEYS}`);
    try {
      expect(await storedSecrets('we_key_rotation')).toEqual(secrets.map(() => expect.stringMatching(/^v1:test-2:/)));
      expect(await withNewKey.deps.endpoints.secrets.countNotCurrent()).toBe(0);
      expect(await withNewKey.deps.endpoints.signingSecrets('we_key_rotation', new Date())).toEqual([secrets[2], secrets[1]]);
    } finally {
      await withNewKey.stop();
    }
    // The old key alone no longer opens them: a process started without the new key refuses to start,
    // naming the missing key id and the runbook (issue 47, item 8).
    await expect(startAnother(TEST_SECRETS_ENCRYPTION_KEYS)).rejects.toThrow(
      /sealed with key "test-2", which SECRETS_ENCRYPTION_KEYS does not list: .*see docs\/operations\.md#a-key-missing-at-start$/,
    );
  });

  it('a sealed secret copied onto another endpoint’s row does not open there', async () => {
    const a = await webhooks.client.createEndpoint({ url: receiver.url('/a') }, ctx);
    const b = await webhooks.client.createEndpoint({ url: receiver.url('/b') }, ctx);
    const [aSealed] = await storedSecrets(a.endpoint!.id);
    await webhooks.prisma.endpointSecret.updateMany({ where: { endpointId: b.endpoint!.id }, data: { secret: aSealed! } });
    const opened = webhooks.service.deps.endpoints.signingSecrets(b.endpoint!.id, new Date());
    await expect(opened).rejects.toBeInstanceOf(SecretDecryptError);
    await expect(webhooks.service.deps.endpoints.signingSecrets(b.endpoint!.id, new Date())).rejects.toThrow(/copied from another row/);
    expect(await webhooks.service.deps.endpoints.signingSecrets(a.endpoint!.id, new Date())).toEqual([a.secret]);
  });

  it('a create with a preset id is made once; again it answers that endpoint and its secret, opened from the sealed row alone', async () => {
    const id = newId('webhookEndpoint');
    const request = { url: receiver.url('/preset'), description: 'preset', id };
    const first = await webhooks.client.createEndpoint(request, ctx);
    const retry = await webhooks.client.createEndpoint(request, ctx);
    expect([first.created, retry.created]).toEqual([true, false]);
    expect(retry.endpoint!.id).toBe(id);
    expect(retry.secret).toBe(first.secret);
    // Kept once, sealed: the retry's answer is the stored row opened, not a second copy.
    const stored = await storedSecrets(id);
    expect(stored).toEqual([expect.stringMatching(/^v1:/)]);
    expect(stored[0]).not.toContain(first.secret.slice('whsec_'.length));
    const read = await webhooks.client.getEndpoint({ id, withSecret: true }, ctx);
    expect(read.secret).toBe(first.secret);
    expect((await webhooks.client.getEndpoint({ id }, ctx)).secret).toBeUndefined();
    // After a rotation a retry answers the current secret; another account's retry is not answered.
    const rotated = await webhooks.client.rotateEndpointSecret({ id }, ctx);
    expect((await webhooks.client.createEndpoint(request, ctx)).secret).toBe(rotated.secret);
    await expect(webhooks.client.createEndpoint(request, { ...ctx, accountId: 'acct_other' })).rejects.toMatchObject({ code: 'not_found' });
    expect((await webhooks.client.listEndpoints({}, ctx)).endpoints.filter((e) => e.id === id)).toHaveLength(1);
  });
});
