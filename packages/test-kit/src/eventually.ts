/**
 * Polls `read` until `done` holds, at most `timeoutMs`, and returns the last value read either way,
 * so the test's own expectation reports what was seen. For what trails a change by design: customers
 * and webhooks are built from events, milliseconds after the change.
 */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
