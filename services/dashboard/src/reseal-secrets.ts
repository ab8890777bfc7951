import { parseArgs } from 'node:util';
import { secretBoxFromEnv } from '@hc/secrets';
import { loadDashboardConfig } from './config.ts';
import { createDashboardPrisma } from './store/prisma.ts';
import { TotpSealing } from './store/totp-sealing.ts';

// Re-encrypts every two-factor seed not sealed with the current key of SECRETS_ENCRYPTION_KEYS (the
// dashboard also does this at every start): `pnpm --filter @hc/dashboard reseal-secrets`, or
// `node services/dashboard/src/reseal-secrets.ts` in a dashboard pod. `--check` changes nothing and
// exits 1 while a seed is not sealed with the current key — run it before removing an old key
// (docs/operations.md, "Encryption keys").
const { values } = parseArgs({ options: { check: { type: 'boolean', default: false } } });
const config = loadDashboardConfig();
const box = secretBoxFromEnv(config.SECRETS_ENCRYPTION_KEYS);
const prisma = createDashboardPrisma(config.DASHBOARD_DATABASE_URL);
try {
  const sealing = new TotpSealing(prisma, box);
  if (values.check) {
    const remaining = await sealing.countNotCurrent();
    console.log(`dashboard: ${remaining} two-factor seed(s) not sealed with key "${box.currentKeyId}"`);
    process.exitCode = remaining === 0 ? 0 : 1;
  } else {
    const { resealed, remaining } = await sealing.reseal();
    console.log(
      `dashboard: ${resealed} user(s)' two-factor seeds re-encrypted with key "${box.currentKeyId}"; ${remaining} not sealed with it`,
    );
    process.exitCode = remaining === 0 ? 0 : 1;
  }
} finally {
  await prisma.$disconnect();
}
