import { ApiError } from '@hc/errors';
import { newId } from '@hc/ids';
import { postDelivery, type DeliveryTarget } from '../adapters/delivery-post.ts';
import { gradeCheck, type CheckAnswer, type CheckResult } from '../domain/check-grading.ts';
import type { Scope, WebhookEndpoint } from '../domain/endpoint.ts';
import {
  CHECK_HEADER,
  CHECK_IDS,
  CHECK_TIMEOUT_CAP_MS,
  checkPlan,
  STALE_BY_MS,
  type CheckDelivery,
  type CheckIds,
} from '../domain/endpoint-check.ts';
import { newSigningSecret, signatureHeaders } from '../domain/signing.ts';
import { CHECKS_PER_MINUTE } from '../store/check-limits.ts';
import type { WebhooksDependencies } from './dependencies.ts';
import { getEndpoint } from './get-endpoint.ts';

export interface EndpointCheckReport {
  readonly endpoint: WebhookEndpoint;
  readonly created: Date;
  readonly timeoutMs: number;
  readonly checks: readonly CheckResult[];
}

/**
 * Sends the checker's deliveries to a Test endpoint and grades its answers (docs/adr/0087). They are
 * signed by the delivery signer with the endpoint's own secrets and sent by the delivery client with
 * its SSRF guard, but nothing of them is stored: no event, delivery, attempt, metric or endpoint
 * health (last success, failing since) — a check is not a delivery of the account.
 */
export async function checkEndpoint(deps: WebhooksDependencies, scope: Scope, endpointId: string): Promise<EndpointCheckReport> {
  const endpoint = await getEndpoint(deps, scope, endpointId);
  if (endpoint.livemode) {
    throw new ApiError(
      'test_mode_only',
      'The endpoint checker sends to Test endpoints only; a Live endpoint receives real deliveries alone.',
    );
  }
  const created = deps.now();
  if (!(await deps.checkLimits.consume(scope.accountId, created))) {
    throw new ApiError('rate_limited', `At most ${CHECKS_PER_MINUTE} endpoint checks a minute per account; retry after 60 seconds.`);
  }
  const timeoutMs = Math.min(deps.settings.timeoutMs, CHECK_TIMEOUT_CAP_MS);
  const target: DeliveryTarget = {
    resolver: deps.resolver,
    allowPrivateTargets: deps.settings.allowPrivateTargets,
    timeoutMs,
    ca: deps.ca,
    connections: deps.connections,
  };
  const secrets = await deps.endpoints.signingSecrets(endpoint.id, created);
  const send = async (delivery: CheckDelivery): Promise<CheckAnswer> => {
    const at = deps.now();
    const body = JSON.stringify(delivery.body);
    const signedAt = delivery.signing === 'stale' ? new Date(at.getTime() - STALE_BY_MS) : at;
    // The one signer of real deliveries; the forged delivery only gets a secret the endpoint never had.
    const signed = signatureHeaders(delivery.signing === 'wrong_secret' ? [newSigningSecret()] : secrets, delivery.body.id, signedAt, body);
    const started = performance.now();
    const result = await postDelivery(target, endpoint.url, signed, body, { [CHECK_HEADER]: 'true' });
    return { eventType: delivery.body.type, result, latencyMs: Math.round(performance.now() - started) };
  };
  const answers = new Map<string, CheckAnswer[]>();
  // Round by round: the second round's deliveries must follow the first's (checkPlan).
  for (const round of checkPlan(created.getTime(), runIds())) {
    const answered = await Promise.all(round.map(send));
    round.forEach((delivery, i) => answers.set(delivery.check, [...(answers.get(delivery.check) ?? []), answered[i]!]));
  }
  const checks = CHECK_IDS.map((id) => gradeCheck(id, answers.get(id) ?? [], timeoutMs));
  return { endpoint, created, timeoutMs, checks };
}

/** Fresh ULIDs for one run: its events and payments never repeat another run's, or any real one's. */
function runIds(): CheckIds {
  const ulid = (): string => newId('event').slice('evt_'.length);
  return { events: [ulid(), ulid(), ulid(), ulid(), ulid(), ulid()], payments: [ulid(), ulid()] };
}
