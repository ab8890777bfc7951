// Runs the example shop: `WEBHOOK_SECRET=whsec_… pnpm --filter example-shop start` with TEST_SECRET_KEY
// and GATEWAY_URL as ./scripts/start prints them (examples/shop/README.md).
import { createClient } from '@hosted-checkout/sdk';
import { createShop } from './app.ts';

function required(name: string): string {
  const value = process.env[name];
  if (!value) {
    process.stderr.write(`example-shop: set ${name} (see examples/shop/README.md)\n`);
    process.exit(2);
  }
  return value;
}

const port = Number(process.env['PORT'] ?? 3000);
const shopUrl = process.env['SHOP_URL'] ?? `http://localhost:${port}`;
const client = createClient({ apiKey: required('TEST_SECRET_KEY'), baseUrl: process.env['GATEWAY_URL'] ?? 'http://127.0.0.1:8080' });
// Orders and handled events survive a restart here (SHOP_DATA_FILE, default ./shop-data.json).
const dataFile = process.env['SHOP_DATA_FILE'] ?? 'shop-data.json';
const { app } = createShop({ client, webhookSecret: required('WEBHOOK_SECRET'), shopUrl, dataFile });
app.listen(port, '127.0.0.1', () => process.stdout.write(`example-shop: ${shopUrl}\n`));
