/**
 * A message field checkout always fills, such as the Payment of each of its answers (docs/adr/0106):
 * protobuf-es types every message field as optional, so a reader states here, once, that an answer
 * without it is a broken answer rather than passing `undefined` on to a presenter.
 */
export function answered<T>(value: T | undefined, field: string): T {
  if (value === undefined) throw new Error(`checkout answered without ${field}`);
  return value;
}
