import { eventTablePurges, startPurgeSchedule } from '@hc/events';
import { createServiceClient } from '@hc/grpc';
import { startService } from '@hc/runtime/service';
import type { Logger } from '@hc/logging';
import { MerchantAdminService } from '@hc/proto/accounts/v1';
import { SettlementService } from '@hc/proto/settlement/v1';
import { settlementHandlers } from './api/grpc/settlement-handlers.ts';
import { publishedSecretWarning, type SettlementConfig } from './config.ts';
import { settlementStream } from './adapters/verdict-events.ts';
import { HttpLiveProcessor } from './adapters/http-live-processor.ts';
import { SandboxProcessor } from './adapters/sandbox-processor.ts';
import { ConfiguredFxRates } from './adapters/fx-rate-source.ts';
import { createSettlementPrisma } from './store/prisma.ts';
import { SettlementLockStore } from './store/settlement-locks.ts';
import { TimelineStore } from './store/timeline.ts';
import { VerdictStore } from './store/verdicts.ts';
import { inSettlementUnit } from './store/settlement-unit.ts';
import { startNoticesListener } from './api/listeners/notices-listener.ts';
import { HttpChainReader } from './adapters/chain-reader.ts';
import { ChainCheckStore } from './store/chain-checks.ts';
import type { ChainCheckPass } from './use-cases/check-chain.ts';
import { startChainCheckWorker } from './jobs/chain-check-worker.ts';

/** How long after start a deposit address is watched by the chain check (the longest link lifetime, 90 days, and then some). */
export const CHAIN_WATCH_MS = 100 * 24 * 60 * 60 * 1000;
import type { SettlementDependencies } from './use-cases/dependencies.ts';

export interface RunningSettlementService {
  /** host:port the gRPC server listens on. */
  readonly address: string;
  /** host:port of the processor's notices listener. */
  readonly noticesAddress: string;
  /** One pass of the scheduled chain check, now (it also runs every CHAIN_CHECK_INTERVAL_MS). */
  checkChainNow(): Promise<ChainCheckPass>;
  stop(): Promise<void>;
}

/**
 * Settlement on the service skeleton (@hc/runtime/service, docs/adr/0095): database → dependencies
 * (processors, the accounts client) → NATS (its stream, the outbox relay) → chain check and purges →
 * the processor's notices listener → gRPC. Used by main.ts and by tests (with a test clock).
 */
export async function startSettlementService(
  config: SettlementConfig,
  logger: Logger,
  options: { now?: () => Date } = {},
): Promise<RunningSettlementService> {
  const service = await startService({
    name: 'settlement',
    logger,
    database: {
      open: async () => {
        const prisma = createSettlementPrisma(config.SETTLEMENT_DATABASE_URL);
        await prisma.$connect();
        return prisma;
      },
      close: (prisma) => prisma.$disconnect(),
    },
    dependencies: (prisma, life): SettlementDependencies => ({
      locks: new SettlementLockStore(prisma),
      verdicts: new VerdictStore(prisma),
      timeline: new TimelineStore(prisma),
      fx: new ConfiguredFxRates(config.FX_RATES_USD),
      processors: {
        test: new SandboxProcessor(config.SANDBOX_COIN),
        live: new HttpLiveProcessor(config.PROCESSOR_URL, config.PROCESSOR_TIMEOUT_MS),
      },
      units: (work) => inSettlementUnit(prisma, work),
      now: options.now ?? (() => new Date()),
      // Accounts owns the merchant: a Live transfer is forwarded to the wallet it has then (docs/adr/0081).
      accounts: life.own(
        'accounts client',
        createServiceClient(MerchantAdminService, config.ACCOUNTS_GRPC_ADDRESS, { timeoutMs: config.ACCOUNTS_TIMEOUT_MS }),
        (client) => client.close(),
      ),
    }),
    events: {
      natsUrl: config.NATS_URL,
      streams: [settlementStream(config.NATS_SUBJECT_PREFIX, config)],
      relay: { databaseUrl: config.SETTLEMENT_DATABASE_URL, subjectPrefix: config.NATS_SUBJECT_PREFIX },
    },
    jobs: ({ database: prisma, deps }) => ({
      chainChecks: startChainCheckWorker(deps, {
        chain: new HttpChainReader(config.CHAIN_RPC_URL, config.PROCESSOR_TIMEOUT_MS),
        store: new ChainCheckStore(prisma),
        intervalMs: config.CHAIN_CHECK_INTERVAL_MS,
        maxAgeMs: CHAIN_WATCH_MS,
        batchSize: 50,
        logger,
      }),
      purges: startPurgeSchedule(eventTablePurges(config.SETTLEMENT_DATABASE_URL, config), config.EVENTS_PURGE_INTERVAL_MS, logger),
    }),
    listeners: async ({ deps }) => {
      // Local mode with the emulator's published secret: said at every start, never silently (docs/adr/0016).
      const published = publishedSecretWarning(config);
      if (published) logger.warn({ noticesAddress: config.SETTLEMENT_NOTICES_ADDRESS }, published);
      return { notices: await startNoticesListener(deps, config.NOTICE_SIGNING_SECRET, config.SETTLEMENT_NOTICES_ADDRESS, logger) };
    },
    grpc: {
      address: config.SETTLEMENT_GRPC_ADDRESS,
      register: (server, { deps }) => server.add(SettlementService, settlementHandlers(deps)),
    },
  });
  return {
    address: service.address!,
    noticesAddress: service.listeners.notices.address,
    checkChainNow: () => service.jobs.chainChecks.runOnce(),
    // Idempotent (the skeleton stops once): a test may stop it early (settlement down) and again when its stack stops.
    stop: () => service.stop(),
  };
}
