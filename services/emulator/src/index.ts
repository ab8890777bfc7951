// What the platform runner and tests use of the emulator.
export { startEmulator } from './emulator-service.ts';
export type { RunningEmulator } from './emulator-service.ts';
export { loadEmulatorConfig } from './config.ts';
export type { EmulatorConfig } from './config.ts';
export { signNotice, signForwardQuestion } from './adapters/notices.ts';
export type { SignedNotice } from './adapters/notices.ts';
export { noticeBody, NOTICE_MODES } from './domain/notice-body.ts';
export type { NoticeBody, NoticeMode } from './domain/notice-body.ts';
export { EMULATED_COINS } from './domain/ledger.ts';
export { payThroughEmulator, EmulatorRefusal } from './adapters/emulator-client.ts';
export type { PayOptions, PayResult } from './adapters/emulator-client.ts';
