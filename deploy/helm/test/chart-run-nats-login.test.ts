// Risk covered: a chart:run NATS node exiting at start because nats-server could not parse the login
// its file reads from the environment (CI of 30 Nov: nats-0 exited four times). nats-server parses a
// `$VARIABLE`'s value as a value of its config language, so a random hex password such as `41e1cd…`
// reads as a number and the file fails. Checked with nats-server's own config test (`-t`), the machine's
// binary (scripts/ensure-infrastructure.sh starts it; same Debian 2.9 as the local NATS image).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { NATS_AUTHORIZATION } from '../chart-run/nats-cluster.ts';
import { natsPassword } from '../chart-run/nats-tls.ts';

const NATS_SERVER = ['/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server'].find(existsSync) ?? 'nats-server';
const dir = mkdtempSync(join(tmpdir(), 'nats-login-'));
const config = join(dir, 'login.conf');
writeFileSync(config, `${NATS_AUTHORIZATION}\n`);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** nats-server's verdict on the login line with this password in the environment: '' when it parses. */
function configError(password: string): string {
  const result = spawnSync(NATS_SERVER, ['-c', config, '-t'], {
    encoding: 'utf8',
    env: { PATH: process.env['PATH'], NATS_USER: 'hosted-checkout', NATS_PASSWORD: password },
  });
  if (result.error) throw new Error(`nats-server not found (${NATS_SERVER}): ${result.error.message}`);
  return result.status === 0 ? '' : `${result.stdout}${result.stderr}`.trim();
}

describe("chart:run's NATS password", () => {
  it('is one nats-server reads as a string (a hex that starts with digits and has an e is a number to it)', () => {
    expect(configError('41e1cd6cfb37381aa82f0f92d91196ee4ad3')).toMatch(/could not be parsed/);
    expect(configError('p41e1cd6cfb37381aa82f0f92d91196ee4ad3')).toBe('');
  });

  it('parses, for 300 passwords as makeNatsLogin makes them (about 20 plain hex ones of 300 would not)', () => {
    const failures = Array.from({ length: 300 }, natsPassword)
      .map((password) => ({ password, error: configError(password) }))
      .filter(({ error }) => error !== '');
    expect(failures).toEqual([]);
  });
});
