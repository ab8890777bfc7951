import { containerEngineAnswers, startInfrastructureContainers } from './containers.ts';
import type { StartedInfrastructure } from './containers.ts';
import { LOCAL_DATABASE_URL, LOCAL_NATS_URL } from './infrastructure.ts';

interface Holder {
  __hcInfrastructure?: { started?: StartedInfrastructure; describe: string };
}

function say(scope: string, describe: string): void {
  process.stderr.write(`\ntest infrastructure for ${scope}: ${describe}\n`);
}

/** Decides once per jest run where PostgreSQL and NATS are; the projects of the run share the answer. */
async function decide(): Promise<{ started?: StartedInfrastructure; describe: string }> {
  const infra = process.env['TEST_INFRA'] ?? '';
  if (process.env['TEST_DATABASE_URL'] || process.env['TEST_NATS_URL']) {
    return {
      describe: `given: TEST_DATABASE_URL=${redact(process.env['TEST_DATABASE_URL'] ?? LOCAL_DATABASE_URL)} TEST_NATS_URL=${process.env['TEST_NATS_URL'] ?? LOCAL_NATS_URL}`,
    };
  }
  if (infra === 'local') return { describe: `local servers (${LOCAL_DATABASE_URL}, ${LOCAL_NATS_URL}), TEST_INFRA=local` };
  if (infra !== '' && infra !== 'containers') throw new Error(`TEST_INFRA must be "containers" or "local" (got "${infra}")`);
  if (!(await containerEngineAnswers())) {
    if (infra === 'containers') {
      throw new Error('TEST_INFRA=containers but no container engine answers (run: eval "$(bash scripts/ensure-container-engine.sh)")');
    }
    return { describe: `LOCAL SERVERS: no container engine answers (${LOCAL_DATABASE_URL}, ${LOCAL_NATS_URL})` };
  }
  const started = await startInfrastructureContainers(`jest-${process.pid}`);
  process.env['TEST_DATABASE_URL'] = started.databaseUrl;
  process.env['TEST_NATS_URL'] = started.natsUrl;
  return { started, describe: started.describe };
}

function redact(url: string): string {
  return url.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@');
}

/**
 * Jest globalSetup. Jest runs it once per run in its main process (every project names this same file),
 * before any worker starts, so the workers inherit TEST_DATABASE_URL/TEST_NATS_URL. TEST_INFRA=containers
 * starts PostgreSQL and NATS containers (testcontainers, ports on 127.0.0.1), TEST_INFRA=local uses the
 * machine's servers, and without it containers are used when an engine answers. One pair serves every
 * project of the run: each test file already has a database and NATS prefix of its own (docs/adr/0043).
 */
export default async function globalSetup(): Promise<void> {
  const holder = globalThis as Holder;
  holder.__hcInfrastructure ??= await decide();
  say('all projects of this run', holder.__hcInfrastructure.describe);
}
