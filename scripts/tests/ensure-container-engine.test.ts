// Risk covered: a podman API service started from a directory that is deleted later (a CI clone, a
// test's temporary clone) still answers /_ping, but every container it starts fails ("conmon: Failed to
// get working directory"; testcontainers sees HTTP 500 "write child: broken pipe"), and
// scripts/ensure-container-engine.sh took it as healthy, so whole suites failed (issue 45, item 6).
// It proves: the script starts a probe container, restarts a service that answers but cannot start one
// (from /), prints the same export lines as before, and leaves a healthy service alone.
// Every podman API service here listens on a socket of the test's own (HC_PODMAN_SOCKET, DOCKER_HOST):
// the machine's shared service, which other test runs use meanwhile, is never touched.
// Needs podman (skipped without it) and no Docker daemon on /var/run/docker.sock (which the script
// would prefer to the test's podman socket).
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readlinkSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { eventually } from '@hc/test-kit';

const run = promisify(execFile);
const script = join(import.meta.dirname, '..', 'ensure-container-engine.sh');
const PROBE_IMAGE = 'localhost/hc-engine-probe:1';
const hasPodman = (() => {
  try {
    execFileSync('podman', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
const describeWithPodman = hasPodman && !existsSync('/var/run/docker.sock') ? describe : describe.skip;

/** One call of the Docker-compatible API on a unix socket: [status, body]. */
function api(socket: string, method: string, path: string, body?: unknown): Promise<[number, string]> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const call = request(
      { socketPath: socket, method, path, headers: payload ? { 'Content-Type': 'application/json' } : {} },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve([response.statusCode ?? 0, text]));
      },
    );
    call.on('error', reject);
    call.end(payload);
  });
}

const answers = (socket: string) =>
  api(socket, 'GET', '/_ping').then(
    ([, body]) => body === 'OK',
    () => false,
  );

/** Creates and starts a container of the probe image through the socket; the start's [status, body]. */
async function startContainer(socket: string): Promise<[number, string]> {
  const name = `hc-engine-test-${process.pid}-${Date.now()}`;
  const created = await api(socket, 'POST', `/containers/create?name=${name}`, {
    Image: PROBE_IMAGE,
    Cmd: ['/catatonit', '-V'],
    HostConfig: { NetworkMode: 'none' },
  });
  expect(created[0]).toBe(201);
  try {
    return await api(socket, 'POST', `/containers/${name}/start`);
  } finally {
    await api(socket, 'DELETE', `/containers/${name}?force=true`);
  }
}

/** The process listening on a unix socket, as ss reports it. */
function listenerPid(socket: string): number | undefined {
  const line = execFileSync('ss', ['-xlpn'], { encoding: 'utf8' })
    .split('\n')
    .find((row) => row.split(/\s+/)[4] === socket);
  const pid = line?.match(/pid=(\d+)/)?.[1];
  return pid === undefined ? undefined : Number(pid);
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The script as CI's first call runs it, pointed at the test's socket; its stdout and stderr. */
async function ensureEngine(env: Record<string, string>): Promise<{ stdout: string; stderr: string }> {
  const { DOCKER_HOST: _machines, ...inherited } = process.env;
  return run('bash', [script, '--no-install'], { cwd: tmpdir(), env: { ...inherited, ...env }, timeout: 60_000 });
}

const exportLines = (socket: string) =>
  [
    `export DOCKER_HOST=unix://${socket}`,
    'export HC_CONTAINER_ENGINE=podman',
    'export TESTCONTAINERS_HOST_OVERRIDE=127.0.0.1',
    'export TESTCONTAINERS_RYUK_DISABLED=true',
    '',
  ].join('\n');

describeWithPodman('scripts/ensure-container-engine.sh on a podman API socket of its own', () => {
  let dir: string;
  let socket: string;
  const started: ChildProcess[] = [];

  /** `podman system service` on the test's socket, run from `cwd`, once it answers. */
  async function startService(cwd: string): Promise<ChildProcess> {
    const service = spawn('podman', ['system', 'service', '--time=0', `unix://${socket}`], { cwd, detached: true, stdio: 'ignore' });
    started.push(service);
    expect(await eventually(() => answers(socket), Boolean)).toBe(true);
    return service;
  }

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'hc-engine-'));
    socket = join(dir, 'podman.sock');
  });

  afterEach(() => {
    // The services this test started, and the one the script started on the test's socket.
    const restarted = existsSync(socket) ? listenerPid(socket) : undefined;
    for (const pid of [...started.map((service) => service.pid), restarted]) {
      if (pid !== undefined && isRunning(pid)) process.kill(pid);
    }
    started.length = 0;
    rmSync(dir, { recursive: true, force: true });
  });

  it('restarts, from /, a service that answers /_ping but cannot start a container because its directory was deleted', async () => {
    const clone = join(dir, 'clone');
    mkdirSync(clone);
    const stale = await startService(clone);
    rmSync(clone, { recursive: true });
    const exited = new Promise((resolve) => stale.once('exit', resolve));
    // The probe image, imported as the script imports it (an import starts no container, so the broken
    // service takes it), to show the failure before the script runs.
    await run('bash', [
      '-c',
      `tar -C "$(dirname "$(command -v catatonit)")" -c catatonit | curl -sf --unix-socket "$0" -X POST -H 'Content-Type: application/x-tar' --data-binary @- "http://d/images/create?fromSrc=-&repo=${PROBE_IMAGE}" >/dev/null`,
      socket,
    ]);
    expect(await answers(socket)).toBe(true);
    const [brokenStatus, brokenBody] = await startContainer(socket);
    // podman words the failure by where it broke ("broken pipe" from conmon's pipe, or the OCI runtime's
    // "exit status 1"); either way the service answers /_ping and cannot start a container.
    expect({ brokenStatus, brokenBody }).toEqual({ brokenStatus: 500, brokenBody: expect.stringMatching(/broken pipe|exit status/) });

    const { stdout, stderr } = await ensureEngine({ HC_PODMAN_SOCKET: socket });

    expect(stdout).toBe(exportLines(socket));
    expect(stderr).toContain('cannot start a container');
    expect(stderr).toContain(`restarting podman's API service on unix://${socket}`);
    await exited;
    const restarted = listenerPid(socket);
    expect(restarted).toBeDefined();
    expect(restarted).not.toBe(stale.pid);
    expect(readlinkSync(`/proc/${restarted}/cwd`)).toBe('/');
    const [status, body] = await startContainer(socket);
    expect({ status, body }).toEqual({ status: 204, body: '' });
  });

  it('leaves a service that starts containers alone and prints the same lines for DOCKER_HOST', async () => {
    const healthy = await startService('/');

    const { stdout, stderr } = await ensureEngine({ DOCKER_HOST: `unix://${socket}` });

    expect(stdout).toBe(exportLines(socket));
    expect(stderr).not.toContain('restarting');
    expect(listenerPid(socket)).toBe(healthy.pid);
  });
});
