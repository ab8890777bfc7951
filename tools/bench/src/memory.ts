/**
 * Issue 50 item 4 alone: each platform process's resident memory (VmRSS) at idle and at its peak under
 * the create load, for one or more checkouts of the repository started in turn (an A/B of old and new
 * code on the same machine, alternated round by round). Not a test.
 *
 *   node tools/bench/src/memory.ts [--root DIR]… [--rounds 2] [--settle 15] [--seconds 10] [--connections 64] [--traced]
 *
 * Each --root (default: this checkout) is a worktree with its dependencies installed; every round starts
 * each one's platform (own ports and databases), waits --settle seconds after it is ready (start-up
 * garbage collected, pools opened), takes the idle figure, then drives POST /v1/checkout_sessions for
 * --seconds (0: idle only) and takes each process's peak while it ran. --traced points every process at
 * a real OTLP receiver (@hc/test-kit's, in this process), as a platform with tracing configured runs.
 */
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startOtlpReceiver } from '@hc/test-kit';
import { formatRow, load } from './measure.ts';
import { eachPlatformInTurn, platformProcesses } from './own-platform.ts';
import { proportionalTotal, residentNow, residentPeak, residentTable } from './resident.ts';

const { values } = parseArgs({
  options: {
    root: { type: 'string', multiple: true },
    rounds: { type: 'string', default: '2' },
    settle: { type: 'string', default: '15' },
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '64' },
    traced: { type: 'boolean', default: false },
  },
});
const roots = (values.root ?? [join(import.meta.dirname, '..', '..', '..')]).map((root) => resolve(root));
const say = (line: string) => process.stdout.write(`${line}\n`);
const seconds = Number(values.seconds);
const receiver = values.traced ? await startOtlpReceiver() : undefined;
// Each process names itself (hc-<service>) as in production: no OTEL_SERVICE_NAME.
const { OTEL_SERVICE_NAME: _name, ...tracing } = receiver?.env('') ?? {};

await eachPlatformInTurn({ label: 'memory', roots, rounds: Number(values.rounds), extraEnv: tracing, say }, async (platform) => {
  await new Promise((done) => setTimeout(done, Number(values.settle) * 1000));
  const processes = platformProcesses(platform);
  const idle = residentNow(processes);
  const idleShared = proportionalTotal(processes);
  let peak: Map<number, number> | undefined;
  if (seconds > 0) {
    const sampler = residentPeak(processes);
    const body = JSON.stringify({ amount: '25.00', currency: 'EUR', description: 'Memory', customer_email: 'bench@example.com' });
    const headers = { authorization: `Bearer ${platform.key}`, 'content-type': 'application/json' };
    const url = `${platform.apiUrl}/v1/checkout_sessions`;
    const figure = await load('POST /v1/checkout_sessions', {
      url,
      method: 'POST',
      headers,
      body,
      connections: Number(values.connections),
      duration: seconds,
    });
    peak = sampler.stop();
    say(formatRow(figure));
  }
  const title = `resident memory (VmRSS), MB — idle ${values.settle} s after start${peak ? ' / peak under the create load' : ''}:`;
  for (const line of residentTable(title, processes, idle, peak)) say(line);
  say(`  idle, shared pages counted once (sum of PSS): ${idleShared.toFixed(0)} MB`);
});
await receiver?.stop();
