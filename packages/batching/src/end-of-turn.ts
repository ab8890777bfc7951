/**
 * The one end-of-turn rule (docs/batching.md): work asked for during a turn of the event loop starts
 * once that turn is done, with everything asked in it. Requests read from many sockets at once, a
 * grouped gRPC call's reads, the messages of one fetch: each turn's worth goes out together instead
 * of the first alone and then the rest. A lone request waits for nothing but the end of its own turn.
 *
 * setImmediate, not a microtask: microtasks run before the turn's other I/O callbacks, so a group
 * started from one would hold only the first socket's requests. Nothing else in the platform
 * schedules its own end-of-turn start; every batch goes through here.
 */
export function atEndOfTurn(run: () => void): void {
  setImmediate(run);
}

/** Resolves at the end of this turn of the event loop: what is already buffered has been delivered by then. */
export function endOfTurn(): Promise<void> {
  return new Promise((resolve) => atEndOfTurn(resolve));
}
