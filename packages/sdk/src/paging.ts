/** One page of a list call, as every list endpoint answers. */
export interface Page<T> {
  readonly data: T[];
  readonly has_more: boolean;
  readonly next_cursor: string | null;
}

/**
 * Every item of a list, newest first, fetching pages as the loop goes:
 * `for await (const payment of client.payments.list({ status: 'paid' })) …`. Breaking out of the loop
 * fetches no further page.
 */
export async function* paginate<T>(fetchPage: (startingAfter: string | undefined) => Promise<Page<T>>): AsyncGenerator<T, void, undefined> {
  let cursor: string | undefined;
  for (;;) {
    const page = await fetchPage(cursor);
    yield* page.data;
    if (!page.has_more || page.next_cursor === null) return;
    cursor = page.next_cursor;
  }
}
