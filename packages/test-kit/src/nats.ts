import { randomBytes } from 'node:crypto';

/**
 * A subject/stream prefix that belongs to one test file, so files running in parallel against one
 * NATS server never see each other's messages or streams.
 */
export function testNatsPrefix(label: string): string {
  return `t_${label}_${randomBytes(4).toString('hex')}`;
}
