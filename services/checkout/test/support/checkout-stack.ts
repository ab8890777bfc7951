/**
 * The checkout context for tests, with everything it talks to real: the settlement gRPC service, the
 * accounts gRPC service (where the buyer's side reads the account, ADR 0037, 0085), PostgreSQL (a
 * database of the test file's own per service), and NATS with a stream of the test file's own. Used by
 * checkout's integration tests and by the end-to-end tests, whose gateway authenticates with that
 * accounts service.
 */
import { loadSettlementConfig, SETTLEMENT_MIGRATIONS_DIR, startSettlementService, type RunningSettlementService } from '@hc/settlement';
import { DEFAULT_EVENT_RETENTION } from '@hc/events';
import { loadEmulatorConfig, startEmulator, type RunningEmulator } from '@hc/emulator';
import {
  ACCOUNTS_MIGRATIONS_DIR,
  loadAccountsConfig,
  startAccountsService,
  type AccountsConfig,
  type AccountVerbs,
  type MerchantAccount,
  type RunningAccountsService,
} from '@hc/accounts';
import type { Logger } from '@hc/logging';
import { createTestDatabase, TestClock, testNatsPrefix, testNatsUrl, type TestDatabase } from '@hc/test-kit';
import { checkoutStream, paymentEventsFilter } from '../../src/adapters/checkout-stream.ts';
import { startCheckoutService, type RunningCheckoutService } from '../../src/checkout-service.ts';
import { CHECKOUT_MIGRATIONS_DIR } from '../../src/migrations.ts';

export interface CheckoutStack {
  readonly checkout: RunningCheckoutService;
  readonly settlement: RunningSettlementService;
  /** The Live processor and chain, emulated: Live starts get deposit addresses from it, its notices reach settlement. */
  readonly emulator: RunningEmulator;
  readonly clock: TestClock;
  readonly checkoutDatabaseUrl: string;
  /** Settlement's database (tests read every table of it, e.g. looking for secrets at rest). */
  readonly settlementDatabaseUrl: string;
  readonly natsUrl: string;
  /** The prefix of this stack's subjects and stream. */
  readonly natsPrefix: string;
  /** The JetStream stream payment events land in. */
  readonly stream: { name: string; subjects: string[] };
  /** Consumer filter for payment events only (the stream also carries checkout.session.* events). */
  readonly paymentEvents: string;
  /** The accounts service: its database, its gRPC address, and its verbs in this process. */
  readonly accounts: AccountsHandle;
  /**
   * Makes a merchant account with this id in the accounts database, as accounts stores it: active,
   * 150 bps, named "Test shop" and without a wallet unless told otherwise. Change it later through
   * `accounts.operations` (wallet, suspend, reactivate), as the operator does.
   */
  putAccount(account: { id: string } & Partial<Omit<MerchantAccount, 'id'>>): Promise<MerchantAccount>;
  stop(): Promise<void>;
}

export async function startCheckoutStack(
  logger: Logger,
  options: { publicBaseUrl?: string; label?: string; settlementEnv?: Record<string, string>; emulatorEnv?: Record<string, string> } = {},
): Promise<CheckoutStack> {
  const clock = new TestClock();
  const databases: TestDatabase[] = await Promise.all([
    createTestDatabase('checkout', CHECKOUT_MIGRATIONS_DIR),
    createTestDatabase('settlement', SETTLEMENT_MIGRATIONS_DIR),
    createTestDatabase('accounts', ACCOUNTS_MIGRATIONS_DIR),
  ]);
  const [checkoutDb, settlementDb, accountsDb] = databases as [TestDatabase, TestDatabase, TestDatabase];
  const natsPrefix = testNatsPrefix(options.label ?? 'checkout');
  const natsUrl = testNatsUrl();
  const accountsConfig = (address: string): AccountsConfig =>
    loadAccountsConfig({
      ACCOUNTS_DATABASE_URL: accountsDb.url,
      ACCOUNTS_GRPC_ADDRESS: address,
      NATS_URL: natsUrl,
      NATS_SUBJECT_PREFIX: natsPrefix,
      LOG_LEVEL: 'silent',
    });
  const accounts = await accountsHandle(accountsDb.url, (address) =>
    startAccountsService(accountsConfig(address), logger, { now: clock.now }),
  );
  const emulator = await startEmulator(
    loadEmulatorConfig({ EMULATOR_PORT: '0', EMULATOR_LATE_NOTICE_MS: '60000', LOG_LEVEL: 'silent', ...options.emulatorEnv }),
    logger,
  );
  const settlement = await startSettlementService(
    loadSettlementConfig({
      // One machine with the emulator: its published notice secret (docs/adr/0016).
      SETTLEMENT_LOCAL_MODE: 'true',
      SETTLEMENT_DATABASE_URL: settlementDb.url,
      SETTLEMENT_GRPC_ADDRESS: '127.0.0.1:0',
      SETTLEMENT_NOTICES_ADDRESS: '127.0.0.1:0',
      PROCESSOR_URL: emulator.url,
      CHAIN_RPC_URL: emulator.url,
      // Where a Live transfer is forwarded: the account's wallet when the emulator asks (docs/adr/0081).
      ACCOUNTS_GRPC_ADDRESS: accounts.address,
      ACCOUNTS_TIMEOUT_MS: '15000',
      NATS_URL: natsUrl,
      NATS_SUBJECT_PREFIX: natsPrefix,
      LOG_LEVEL: 'silent',
      ...options.settlementEnv,
    }),
    logger,
    { now: clock.now },
  );
  emulator.directNoticesTo(`http://${settlement.noticesAddress}/notices`);
  const checkout = await startCheckoutService(
    {
      CHECKOUT_DATABASE_URL: checkoutDb.url,
      CHECKOUT_GRPC_ADDRESS: '127.0.0.1:0',
      PUBLIC_BASE_URL: options.publicBaseUrl ?? 'https://pay.example.test',
      SETTLEMENT_GRPC_ADDRESS: settlement.address,
      // Generous: no test here waits on a hung settlement or accounts (a stopped one refuses at once),
      // and a loaded CI machine has stalled a call past 5 s.
      SETTLEMENT_TIMEOUT_MS: 15_000,
      ACCOUNTS_GRPC_ADDRESS: accounts.address,
      ACCOUNTS_TIMEOUT_MS: 15_000,
      NATS_URL: natsUrl,
      NATS_SUBJECT_PREFIX: natsPrefix,
      // Tests drive the sweeper themselves (expireDuePayments) with the test clock.
      EXPIRY_SWEEP_INTERVAL_MS: 300_000,
      LOG_LEVEL: 'silent',
      ...DEFAULT_EVENT_RETENTION,
    },
    logger,
    { now: clock.now },
  );
  return {
    checkout,
    settlement,
    emulator,
    clock,
    checkoutDatabaseUrl: checkoutDb.url,
    settlementDatabaseUrl: settlementDb.url,
    natsUrl,
    natsPrefix,
    stream: checkoutStream(natsPrefix, DEFAULT_EVENT_RETENTION),
    paymentEvents: paymentEventsFilter(natsPrefix),
    accounts,
    async putAccount(fields) {
      const account: MerchantAccount = {
        name: 'Test shop',
        status: 'active',
        payoutWallet: null,
        feeBps: 150,
        createdAt: clock.now(),
        ...fields,
      };
      await accounts.putAccount(account);
      return account;
    },
    async stop() {
      await checkout.stop();
      await accounts.stop();
      await settlement.stop();
      await emulator.stop();
      await Promise.all(databases.map((db) => db.drop()));
    },
  };
}

/** The accounts service of a stack, which a test may stop (accounts unreachable) and start again on its address. */
export interface AccountsHandle {
  readonly databaseUrl: string;
  readonly address: string;
  /** The account and key verbs in this process, on whichever run of the service is current. */
  readonly operations: AccountVerbs;
  putAccount(account: MerchantAccount): Promise<void>;
  pause(): Promise<void>;
  resume(): Promise<void>;
  stop(): Promise<void>;
}

async function accountsHandle(databaseUrl: string, start: (address: string) => Promise<RunningAccountsService>): Promise<AccountsHandle> {
  let running: RunningAccountsService | undefined = await start('127.0.0.1:0');
  const { address } = running;
  const current = (): RunningAccountsService => {
    if (!running) throw new Error('the accounts service is paused');
    return running;
  };
  const operations: AccountVerbs = {
    createAccount: (input) => current().operations.createAccount(input),
    setPayoutWallet: (accountId, wallet) => current().operations.setPayoutWallet(accountId, wallet),
    suspend: (accountId) => current().operations.suspend(accountId),
    reactivate: (accountId) => current().operations.reactivate(accountId),
    createKey: (accountId, mode, label) => current().operations.createKey(accountId, mode, label),
    activeKey: (secret) => current().operations.activeKey(secret),
    revokeKey: (keyId) => current().operations.revokeKey(keyId),
    listKeys: (accountId) => current().operations.listKeys(accountId),
    getAccount: (accountId) => current().operations.getAccount(accountId),
    listAccounts: () => current().operations.listAccounts(),
  };
  return {
    databaseUrl,
    address,
    operations,
    putAccount: (account) => current().putAccount(account),
    async pause() {
      await running?.stop();
      running = undefined;
    },
    async resume() {
      running ??= await start(address);
    },
    async stop() {
      await running?.stop();
      running = undefined;
    },
  };
}
