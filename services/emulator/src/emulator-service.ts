import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '@hc/logging';
import type { EmulatorConfig } from './config.ts';
import { Ledger, LedgerError } from './domain/ledger.ts';
import { NoticeSender } from './adapters/notices.ts';
import { BadRequest, route, send } from './api/http/routes.ts';
import type { EmulatorDependencies } from './use-cases/dependencies.ts';

export interface RunningEmulator {
  /** Base URL: the processor API, the chain reader (/chain/v1) and the controls (/emulator/v1). */
  readonly url: string;
  readonly ledger: Ledger;
  /** Sends notices to this URL instead of EMULATOR_NOTICE_URL. */
  directNoticesTo(url: string): void;
  stop(): Promise<void>;
}

/**
 * The emulator of the Live processor and the Polygon chain (services/emulator/README.md):
 *   POST /v1/deposit-addresses                      processor: one deposit address per payment
 *   GET  /chain/v1/addresses/:address/transfers     chain: inbound transfers to an address
 *   GET  /chain/v1/transactions/:txid               chain: one transaction's transfers (a statement's check)
 *   POST /emulator/v1/payments/:payment_id/pay      a buyer pays; the processor forwards and notifies
 */
export async function startEmulator(config: EmulatorConfig, logger: Logger): Promise<RunningEmulator> {
  const ledger = new Ledger();
  const notices = new NoticeSender(config.EMULATOR_NOTICE_URL, config.NOTICE_SIGNING_SECRET, logger);

  const deps: EmulatorDependencies = { ledger, notices, lateNoticeMs: config.EMULATOR_LATE_NOTICE_MS };
  const server = createServer((req, res) => {
    route(deps, req, res).catch((error: unknown) => {
      if (error instanceof BadRequest || error instanceof LedgerError)
        return send(res, 400, { error: { code: 'bad_request', message: error.message } });
      logger.error({ err: error }, 'emulator request failed');
      send(res, 500, { error: { code: 'internal_error', message: 'emulator failure' } });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.EMULATOR_PORT, config.EMULATOR_HOST, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${config.EMULATOR_HOST}:${port}`,
    ledger,
    directNoticesTo: (noticeUrl) => notices.setUrl(noticeUrl),
    async stop() {
      notices.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
