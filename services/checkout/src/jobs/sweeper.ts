import type { Logger } from '@hc/logging';
import type { CheckoutDependencies } from '../use-cases/dependencies.ts';
import { expireDuePayments } from '../use-cases/expire-due-payments.ts';

/** Runs the expiry sweep every `intervalMs`, one pass at a time; stop() waits for a pass in flight. */
export function startExpirySweeper(deps: CheckoutDependencies, logger: Logger, intervalMs: number): { stop(): Promise<void> } {
  let running: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    running = running.then(async () => {
      try {
        const expired = await expireDuePayments(deps);
        if (expired > 0) logger.info({ expired }, 'expired unpaid payments past expiry');
      } catch (error) {
        logger.error({ err: error }, 'expiry sweep failed; retrying next interval');
      }
    });
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
