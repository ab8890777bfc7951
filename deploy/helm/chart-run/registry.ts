/**
 * A real image registry on 127.0.0.1 for tests: Debian's docker-registry (scripts/ensure-docker-registry.sh)
 * run as a process with a temporary config and storage, removed by stop(). Plain HTTP: clients treat
 * 127.0.0.1 as an insecure registry (podman with --tls-verify=false).
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@hc/test-kit';

export interface LocalRegistry {
  /** host:port */
  address: string;
  stop(): Promise<void>;
}

export async function startRegistry(root: string): Promise<LocalRegistry> {
  const bin = execFileSync('bash', [join(root, 'scripts/ensure-docker-registry.sh')], { encoding: 'utf8' }).trim();
  const dir = mkdtempSync(join(tmpdir(), 'hc-registry-'));
  const address = `127.0.0.1:${await freePort()}`;
  const config = [
    'version: 0.1',
    'log:',
    '  level: warn',
    'storage:',
    '  filesystem:',
    `    rootdirectory: ${dir}/data`,
    'http:',
    `  addr: ${address}`,
  ];
  writeFileSync(join(dir, 'config.yml'), config.join('\n') + '\n');
  const child = spawn(bin, ['serve', join(dir, 'config.yml')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  for (let i = 0; i < 100; i++) {
    const ok = await fetch(`http://${address}/v2/`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { address, stop };
    if (child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await stop();
  throw new Error(`docker-registry did not answer on ${address}:\n${output}`);
}
