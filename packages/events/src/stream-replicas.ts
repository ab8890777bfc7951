/**
 * How many JetStream servers keep a copy of each stream: NATS_STREAM_REPLICAS, 1 (a single server)
 * unless set; 3 on a three-node cluster, so losing one node loses no message and stops no publish
 * (docs/replicas.md). Consumers take their stream's replica count (JetStream's default), so this one
 * setting covers both. NATS allows 1 to 5.
 */
export const DEFAULT_STREAM_REPLICAS = 1;

export function streamReplicas(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env['NATS_STREAM_REPLICAS'];
  if (raw === undefined || raw.trim() === '') return DEFAULT_STREAM_REPLICAS;
  const replicas = Number(raw);
  if (!Number.isInteger(replicas) || replicas < 1 || replicas > 5) {
    throw new Error(`NATS_STREAM_REPLICAS must be a whole number from 1 to 5, not ${JSON.stringify(raw)}`);
  }
  return replicas;
}
