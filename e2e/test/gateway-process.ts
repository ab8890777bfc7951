/**
 * A second gateway as a real process (`node src/main.ts`), sharing the platform's databases and
 * services: what a load balancer puts side by side. Its stdout (JSON logs) is kept for inspection.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { GatewayConfig } from '@hc/gateway';

const MAIN = fileURLToPath(new URL('../../services/gateway/src/main.ts', import.meta.url));

export interface GatewayProcess {
  readonly url: string;
  /** Everything the process printed so far. */
  output(): string;
  stop(): Promise<void>;
}

export async function startGatewayProcess(config: GatewayConfig): Promise<GatewayProcess> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const [name, value] of Object.entries(config)) env[name] = String(value);
  // The address is read from the "gateway listening" log line, so the process logs at least that.
  if (config.LOG_LEVEL === 'silent' || config.LOG_LEVEL === 'error' || config.LOG_LEVEL === 'fatal' || config.LOG_LEVEL === 'warn')
    env['LOG_LEVEL'] = 'info';
  const child: ChildProcess = spawn(process.execPath, [MAIN], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`gateway process did not start:\n${output}`)), 20_000);
    const look = (): void => {
      const match = /"url":"(http:\/\/[^"]+)"/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', look);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`gateway process exited with ${code}:\n${output}`));
    });
  });
  return {
    url,
    output: () => output,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
