/** Operator CLI: `emulator pay`, the local processor emulator (services/emulator): a buyer pays a Live payment. */
import { EmulatorRefusal, payThroughEmulator, type PayOptions } from '@hc/emulator';
import { need, parseMode, UsageError } from './arguments.ts';
import { accountOf, type OperatorCommand } from './operator-command.ts';

export const EMULATOR_COMMANDS: OperatorCommand[] = [
  {
    words: 'emulator pay',
    synopsis:
      'ACCOUNT_ID PAYMENT_ID --mode live --amount A [--coin polygon_usdc|polygon_usdt] [--forward-to WALLET] [--to-address ADDRESS] [--reuse-txid-of PAYMENT_ID] [--notice on-time|late|never|mismatch|duplicate|out-of-order]',
    summary: 'Local Live mode only: a buyer pays a started Live payment through the processor emulator (services/emulator).',
    details: [
      'A is what arrives at the deposit address, in the coin; the emulator asks settlement where to forward (the account’s payout wallet at that moment), forwards it less the fee there (or to WALLET) and sends the signed notice as --notice says.',
      'Reads EMULATOR_URL (default http://127.0.0.1:8090).',
    ],
    // What a buyer does, not an action on the account.
    audited: false,
    async run(input) {
      const { values } = input;
      if (parseMode(values.mode) !== 'live') throw new UsageError('emulator pay is for Live payments: --mode live');
      await accountOf(input);
      const emulatorUrl = process.env['EMULATOR_URL'] ?? 'http://127.0.0.1:8090';
      try {
        const result = await payThroughEmulator(emulatorUrl, need(input.args[1], 'PAYMENT_ID'), {
          amount: need(values.amount, '--amount'),
          coin: values.coin as PayOptions['coin'],
          forwardTo: values['forward-to'],
          toAddress: values['to-address'],
          reuseTxidOf: values['reuse-txid-of'],
          notice: values.notice as PayOptions['notice'],
        });
        return result as unknown as Record<string, unknown>;
      } catch (error) {
        if (error instanceof EmulatorRefusal) throw new UsageError(`emulator refused: ${error.message}`);
        throw error;
      }
    },
  },
];
