import { parseArgs } from 'node:util';
import { secretBoxFromEnv } from '@hc/secrets';
import { loadWebhooksConfig } from './config.ts';
import { SecretSealing } from './store/secret-sealing.ts';
import { createWebhooksPrisma } from './store/prisma.ts';

// Re-encrypts every signing secret not sealed with the current key of SECRETS_ENCRYPTION_KEYS (the
// service also does this at every start): `pnpm --filter @hc/webhooks reseal-secrets`, or
// `node services/webhooks/src/reseal-secrets.ts` in a webhooks pod. `--check` changes nothing and
// exits 1 while a row is not sealed with the current key — run it before removing an old key
// (docs/operations.md, "Encryption keys").
const { values } = parseArgs({ options: { check: { type: 'boolean', default: false } } });
const config = loadWebhooksConfig();
const box = secretBoxFromEnv(config.SECRETS_ENCRYPTION_KEYS);
const prisma = createWebhooksPrisma(config.WEBHOOKS_DATABASE_URL);
try {
  const sealing = new SecretSealing(prisma, box);
  if (values.check) {
    const remaining = await sealing.countNotCurrent();
    console.log(`webhooks: ${remaining} signing secret(s) not sealed with key "${box.currentKeyId}"`);
    process.exitCode = remaining === 0 ? 0 : 1;
  } else {
    const { resealed, remaining } = await sealing.reseal();
    console.log(`webhooks: ${resealed} signing secret(s) re-encrypted with key "${box.currentKeyId}"; ${remaining} not sealed with it`);
    process.exitCode = remaining === 0 ? 0 : 1;
  }
} finally {
  await prisma.$disconnect();
}
