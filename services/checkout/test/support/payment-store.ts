import { createTestDatabase } from '@hc/test-kit';
import { CHECKOUT_MIGRATIONS_DIR } from '../../src/migrations.ts';
import { PaymentStore } from '../../src/store/payments.ts';
import { createCheckoutDatabase, type CheckoutDatabase } from '../../src/store/prisma.ts';

/** Checkout's session store on a migrated database of the test file's own (the store's own tests). */
export async function startPaymentStore(): Promise<{
  url: string;
  database: CheckoutDatabase;
  store: PaymentStore;
  stop(): Promise<void>;
}> {
  const db = await createTestDatabase('checkout', CHECKOUT_MIGRATIONS_DIR);
  const database = createCheckoutDatabase(db.url);
  const store = new PaymentStore(database, { publicBaseUrl: 'https://pay.example.test', providers: [] });
  return {
    url: db.url,
    database,
    store,
    async stop() {
      await database.close();
      await db.drop();
    },
  };
}
