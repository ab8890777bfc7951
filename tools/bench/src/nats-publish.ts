/**
 * CPU per JetStream publish, with and without nats.js's async traces (every request — a JetStream
 * publish is one — builds an Error up front, with its stack, in case it later times out). The outbox
 * relays publish one message per state change, so this is paid once per event in every service that
 * has an outbox. Both variants in one run, alternating, against the machine's NATS (or NATS_URL), on a
 * memory stream of its own that is deleted afterwards. Not a test.
 *
 *   node tools/bench/src/nats-publish.ts [rounds=3] [publishes=20000]
 */
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { testNatsUrl } from '@hc/test-kit';

const rounds = Number(process.argv[2] ?? 3);
const publishes = Number(process.argv[3] ?? 20_000);
const payload = new TextEncoder().encode(
  JSON.stringify({ id: 'pay_bench', amount: '25.00', currency: 'EUR', description: 'Benchmark order' }),
);

async function measure(noAsyncTraces: boolean, round: number): Promise<string> {
  const nc = await connect({ servers: testNatsUrl(), noAsyncTraces });
  const jsm = await jetstreamManager(nc);
  const stream = `bench_publish_${process.pid}_${round}_${noAsyncTraces ? 'off' : 'on'}`;
  await jsm.streams.add({ name: stream, subjects: [`${stream}.>`], storage: 'memory' as never });
  const js = jetstream(nc);
  let sequence = 0;
  const batch = async (n: number) => {
    const pending: Promise<unknown>[] = [];
    for (let i = 0; i < n; i += 1) pending.push(js.publish(`${stream}.event`, payload, { msgID: `${stream}-${(sequence += 1)}` }));
    await Promise.all(pending);
  };
  try {
    await batch(2000); // warm-up
    const cpu = process.cpuUsage();
    const started = performance.now();
    for (let done = 0; done < publishes; done += 1000) await batch(1000);
    const used = process.cpuUsage(cpu);
    const seconds = (performance.now() - started) / 1000;
    return `${noAsyncTraces ? 'noAsyncTraces: true ' : 'default (traces)    '} ${(publishes / seconds).toFixed(0).padStart(6)} publishes/s  ${((used.user + used.system) / publishes).toFixed(1).padStart(5)} µs CPU per publish`;
  } finally {
    await jsm.streams.delete(stream);
    await nc.close();
  }
}

for (let round = 1; round <= rounds; round += 1) {
  console.log(`round ${round}`);
  console.log(`  ${await measure(false, round)}`);
  console.log(`  ${await measure(true, round)}`);
}
