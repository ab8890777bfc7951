import { createGrpcServer } from '@hc/grpc';
import type { Logger } from '@hc/logging';
import { SettlementService } from '@hc/proto/settlement/v1';
import { settlementHandlers } from './api/settlement-handlers.ts';
import type { SettlementConfig } from './config.ts';
import { PlaceholderLiveProcessor } from './processors/placeholder-live-processor.ts';
import { SandboxProcessor } from './processors/sandbox-processor.ts';
import { ConfiguredFxRates } from './rates/fx-rate-source.ts';
import { createSettlementPrisma } from './store/prisma.ts';
import { SettlementLockStore } from './store/settlement-locks.ts';
import { VerdictStore } from './store/verdicts.ts';
import type { SettlementDependencies } from './use-cases/dependencies.ts';

export interface RunningSettlementService {
  /** host:port the gRPC server listens on. */
  readonly address: string;
  stop(): Promise<void>;
}

/** Wires config → database → gRPC server. Used by main.ts and by tests (with a test clock). */
export async function startSettlementService(
  config: SettlementConfig,
  logger: Logger,
  options: { now?: () => Date } = {},
): Promise<RunningSettlementService> {
  const prisma = createSettlementPrisma(config.SETTLEMENT_DATABASE_URL);
  await prisma.$connect();
  const deps: SettlementDependencies = {
    locks: new SettlementLockStore(prisma),
    verdicts: new VerdictStore(prisma),
    fx: new ConfiguredFxRates(config.FX_RATES_USD),
    processors: { test: new SandboxProcessor(config.SANDBOX_COIN), live: new PlaceholderLiveProcessor() },
    now: options.now ?? (() => new Date()),
  };
  const server = createGrpcServer(logger);
  server.add(SettlementService, settlementHandlers(deps));
  const port = await server.listen(config.SETTLEMENT_GRPC_ADDRESS);
  const host = config.SETTLEMENT_GRPC_ADDRESS.slice(0, config.SETTLEMENT_GRPC_ADDRESS.lastIndexOf(':'));
  return {
    address: `${host}:${port}`,
    async stop() {
      await server.stop();
      await prisma.$disconnect();
    },
  };
}
