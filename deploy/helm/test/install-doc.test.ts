// Risk covered: deploy/README.md's install steps drift from the chart — a Secret the chart reads that
// step 1 never creates (hc-notifications-database and hc-notifications-smtp were missing: the
// notifications migration hook could not start and the install failed; issue 45, item 1), or a key of it
// under another name. It proves: the Secrets step 1 creates, with their keys, are exactly those that the
// chart rendered with step 2's command reads (every Deployment's, migration Job's and `helm test` Pod's
// secretKeyRef; step 3 creates the test's key).
// Rendered by a real helm (scripts/ensure-helm.sh).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { parseAllDocuments } from 'yaml';

const CHART = fileURLToPath(new URL('../hosted-checkout', import.meta.url));
const DEPLOY_README = fileURLToPath(new URL('../../README.md', import.meta.url));
/** What step 1's $STATEMENT_KEY holds: a statement public key entry (keyId:base64 SPKI DER). */
const STATEMENT_KEY_EXAMPLE = 's202611:MCowBQYDK2VwAyEAjThhtnj1wpGzbx4tM1p5vyuYaPYEYS8bduyvGo8ecpU=';
const ENSURE_HELM = fileURLToPath(new URL('../../../scripts/ensure-helm.sh', import.meta.url));

/** The shell commands of the README's ```sh blocks, line continuations joined, comments dropped. */
function commands(): string[] {
  const readme = readFileSync(DEPLOY_README, 'utf8');
  return [...readme.matchAll(/```sh\n([\s\S]*?)```/g)]
    .flatMap((block) => block[1]!.replace(/\\\n\s*/g, ' ').split('\n'))
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

/** Secret name -> its keys, as step 1's `kubectl create secret generic` commands create them. */
function secretsCreated(): Record<string, string[]> {
  const created: Record<string, string[]> = {};
  for (const line of commands()) {
    const name = line.match(/^kubectl .*create secret generic (\S+)/)?.[1];
    if (name) created[name] = [...line.matchAll(/--from-literal=([^=\s]+)=/g)].map((m) => m[1]!).sort();
  }
  return created;
}

interface EnvVar {
  valueFrom?: { secretKeyRef?: { name: string; key: string } };
}
interface PodSpec {
  containers: { env?: EnvVar[] }[];
  initContainers?: { env?: EnvVar[] }[];
}

describe("deploy/README.md's install steps", () => {
  let helm: string;
  beforeAll(() => {
    helm = execFileSync('bash', [ENSURE_HELM], { encoding: 'utf8' }).trim();
  }, 180_000);

  it('create every Secret, with every key, that the chart installed by step 2 reads, and no other', () => {
    const install = commands().find((line) => line.startsWith('helm upgrade --install'));
    expect(install).toBeDefined();
    const sets = [...install!.matchAll(/--set\s+(\S+)/g)].flatMap((m) => [
      '--set',
      m[1]!.replace('$TAG', '0.1.0').replace('$STATEMENT_KEY', STATEMENT_KEY_EXAMPLE),
    ]);
    const rendered = execFileSync(helm, ['template', 'pay', CHART, '--namespace', 'payments', ...sets], { encoding: 'utf8' });
    const read: Record<string, Set<string>> = {};
    for (const doc of parseAllDocuments(rendered)) {
      const manifest = doc.toJS() as { kind?: string; spec?: PodSpec & { template?: { spec?: PodSpec } } } | null;
      // Deployments' and Jobs' pod templates, and the `helm test` Pods (step 3).
      const pod = manifest?.kind === 'Pod' ? manifest.spec : manifest?.spec?.template?.spec;
      if (!pod) continue;
      for (const container of [...pod.containers, ...(pod.initContainers ?? [])])
        for (const ref of (container.env ?? []).flatMap((e) => e.valueFrom?.secretKeyRef ?? []))
          (read[ref.name] ??= new Set()).add(ref.key);
    }
    const readSorted = Object.fromEntries(Object.entries(read).map(([name, keys]) => [name, [...keys].sort()]));
    expect(readSorted).toHaveProperty('hc-notifications-database');
    expect(readSorted).toHaveProperty('hc-helm-test-key');
    expect(secretsCreated()).toEqual(readSorted);
  });
});
