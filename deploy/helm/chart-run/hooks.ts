/**
 * `helm test`, as chart:run runs it: the chart's test-hook Pods (helm.sh/hook: test; templates/tests/)
 * one after another in Helm's order, each container on the runner's network until it exits. A pod that
 * exits non-zero fails the run with its output, as `helm test` fails the release's test.
 */
import type { Workload } from './manifests.ts';
import type { PodContext } from './pods.ts';
import { runArgs } from './pods.ts';
import { containerLogs, containerName, run, tryRun } from './engine.ts';

/** The Secret the test pods read the Test secret key from (HC_TEST_API_KEY), made here with `apiKey`. */
function withTestKey(ctx: PodContext, tests: Workload[], apiKey: string): PodContext {
  const secrets = new Map(ctx.secrets);
  for (const c of tests.flatMap((t) => t.pod.containers)) {
    for (const e of c.env ?? []) {
      const ref = e.valueFrom?.secretKeyRef;
      if (!ref || secrets.get(ref.name)?.[ref.key] !== undefined) continue;
      if (e.name !== 'HC_TEST_API_KEY')
        throw new Error(`test pod container ${c.name} reads Secret ${ref.name}, which chart:run does not make`);
      secrets.set(ref.name, { ...secrets.get(ref.name), [ref.key]: apiKey });
    }
  }
  return { ...ctx, secrets };
}

export async function runTestHooks(
  client: string,
  ctx: PodContext,
  tests: Workload[],
  apiKey: string,
  log: (line: string) => void,
): Promise<void> {
  if (tests.length === 0) throw new Error('the chart rendered no test-hook Pod (tests.enabled?)');
  const withKey = withTestKey(ctx, tests, apiKey);
  for (const pod of tests) {
    for (const c of pod.pod.containers) {
      const name = containerName(pod.name);
      tryRun(client, ['rm', '-f', name]);
      run(client, ['run', '-d', ...(await runArgs(withKey, pod, c, name))]);
      const code = run(client, ['wait', name]);
      const output = containerLogs(client, name);
      if (code !== '0') throw new Error(`helm test: pod ${pod.name} failed (exit ${code}):\n${output}`);
      log(`helm test: ${pod.name} passed\n${output.replace(/^/gm, '  ')}`);
    }
  }
}
