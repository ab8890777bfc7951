import { endOfTurn } from '@hc/batching';
import type { JsMsg } from '@nats-io/jetstream';

const NOTHING_WAITING = Symbol('nothing waiting');

/**
 * The messages as groups of those already pulled and waiting (at most `max`): after the first of a
 * group, the next is taken only if it is there by the next turn of the event loop — a message in
 * the client's buffer resolves at once, one that must still come from the server does not.
 */
export async function* waitingGroups(messages: AsyncIterable<JsMsg>, max: number): AsyncGenerator<JsMsg[]> {
  const iterator = messages[Symbol.asyncIterator]();
  let next = iterator.next();
  for (;;) {
    const first = await next;
    if (first.done) return;
    const group = [first.value];
    next = iterator.next();
    let ended = false;
    while (group.length < max) {
      const more = await Promise.race([next, nextTurn()]);
      if (more === NOTHING_WAITING) break;
      if (more.done) {
        ended = true;
        break;
      }
      group.push(more.value);
      next = iterator.next();
    }
    yield group;
    if (ended) return;
  }
}

/** NOTHING_WAITING at the end of this turn (docs/batching.md's one end-of-turn rule). */
function nextTurn(): Promise<typeof NOTHING_WAITING> {
  return endOfTurn().then(() => NOTHING_WAITING);
}
