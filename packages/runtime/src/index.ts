// The process life-cycle every service shares. The service skeleton (startService, runService), which
// brings NATS, gRPC and PostgreSQL with it, is `@hc/runtime/service`: a process that only needs
// signals or crash points (the emulator, tools) does not load them.
export { stopOnSignals } from './signals.ts';
export { crashPoint } from './crash-points.ts';
export { ServiceLife, type StopPart } from './service-life.ts';
