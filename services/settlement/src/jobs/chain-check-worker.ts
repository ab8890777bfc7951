import type { Logger } from '@hc/logging';
import { checkChain, type ChainCheckOptions, type ChainCheckPass } from '../use-cases/check-chain.ts';
import type { SettlementDependencies } from '../use-cases/dependencies.ts';

export interface ChainCheckWorker {
  /** Runs one pass now (tests, operators); passes never overlap. */
  runOnce(): Promise<ChainCheckPass>;
  stop(): Promise<void>;
}

/**
 * Runs the scheduled chain check every `intervalMs` (CHAIN_CHECK_INTERVAL_MS). A pass that finds a
 * full batch runs again at once, so a backlog drains without waiting for the timer. A failing pass
 * (database away) is logged and retried on the next tick; it never stops the worker.
 */
export function startChainCheckWorker(deps: SettlementDependencies, options: ChainCheckOptions): ChainCheckWorker {
  const logger: Logger = options.logger;
  let running: Promise<ChainCheckPass> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const runOnce = (): Promise<ChainCheckPass> => {
    running ??= checkChain(deps, options).finally(() => {
      running = undefined;
    });
    return running;
  };

  const tick = async (): Promise<void> => {
    let again = false;
    try {
      const pass = await runOnce();
      if (pass.confirmed > 0 || pass.unavailable > 0) logger.info(pass, 'chain check pass');
      again = pass.looked >= options.batchSize;
    } catch (error) {
      logger.error({ err: error }, 'chain check pass failed; retrying on the next tick');
    }
    if (!stopped) timer = setTimeout(() => void tick(), again ? 0 : options.intervalMs);
  };
  timer = setTimeout(() => void tick(), options.intervalMs);

  return {
    runOnce,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running?.catch(() => undefined);
    },
  };
}
