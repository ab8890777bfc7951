/** The running SDK's shutdown, kept apart from sdk.ts so that importing it loads no SDK code. */
let shutdown: (() => Promise<void>) | undefined;

export function onTelemetryShutdown(hook: () => Promise<void>): void {
  shutdown = hook;
}

/** Flushes and stops the SDK (spans and metrics still in memory are exported); a no-op when it never started. */
export async function shutdownTelemetry(): Promise<void> {
  const hook = shutdown;
  shutdown = undefined;
  await hook?.().catch(() => undefined);
}
