import type { Ledger } from '../domain/ledger.ts';
import type { NoticeSender } from '../adapters/notices.ts';

/** What the emulator's use cases work with: the in-memory chain and processor, and the notices it sends. */
export interface EmulatorDependencies {
  readonly ledger: Ledger;
  readonly notices: NoticeSender;
  /** How long a `late` (or `mismatch`) notice waits before it is sent. */
  readonly lateNoticeMs: number;
}
