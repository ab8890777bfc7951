// What the platform runner and tests use of the emulator.
export { startEmulator } from './emulator.ts';
export type { RunningEmulator } from './emulator.ts';
export { loadEmulatorConfig } from './config.ts';
export type { EmulatorConfig } from './config.ts';
export { signNotice, signForwardQuestion, noticeBody, NOTICE_MODES } from './notices.ts';
export type { NoticeBody, NoticeMode, SignedNotice } from './notices.ts';
export { EMULATED_COINS } from './ledger.ts';
export { payThroughEmulator, EmulatorRefusal } from './client.ts';
export type { PayOptions, PayResult } from './client.ts';
