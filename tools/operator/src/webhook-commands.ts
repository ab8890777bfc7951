/**
 * Operator CLI: the `webhooks …` commands, over gRPC to the webhooks service. The operator wires
 * them in (operator.ts): it parses the arguments, then calls runWebhookCommand with the words after
 * `webhooks` split by splitWebhookArguments, and prints the result like its other commands.
 */
import { ApiError } from '@hc/errors';
import { createServiceClient } from '@hc/grpc';
import { need, operatorContext, parseMode, UsageError } from './arguments.ts';
import type { CommandSpec } from './help.ts';
import { WebhooksService, type DeliveryAttempt, type Endpoint, type Event } from '@hc/proto/webhooks/v1';

const M = '--mode test|live';

/** The help of every `webhooks …` command (see help.ts). */
export const WEBHOOK_COMMANDS: CommandSpec[] = [
  {
    words: 'webhooks endpoints add',
    synopsis: `ACCOUNT_ID ${M} --url URL [--events TYPE,TYPE|*] [--description TEXT]`,
    summary: 'Registers an endpoint for every event of that mode (or the listed types) and prints its signing secret ONCE.',
    details: [
      'The URL must be https in production; ./scripts/start allows http on this machine (WEBHOOKS_ALLOW_PRIVATE_TARGETS).',
      'Deliveries are signed by the Standard Webhooks scheme with the printed whsec_… secret (docs/webhooks.md).',
    ],
  },
  { words: 'webhooks endpoints list', synopsis: `ACCOUNT_ID ${M}`, summary: "Lists the account's endpoints in that mode." },
  { words: 'webhooks endpoints show', synopsis: `ACCOUNT_ID WE_ID ${M}`, summary: 'Prints one endpoint.' },
  {
    words: 'webhooks endpoints update',
    synopsis: `ACCOUNT_ID WE_ID ${M} [--url URL] [--events TYPE,TYPE|*] [--description TEXT]`,
    summary: 'Changes what is given of an endpoint’s URL, event types and description.',
  },
  { words: 'webhooks endpoints disable', synopsis: `ACCOUNT_ID WE_ID ${M}`, summary: 'Stops deliveries to an endpoint.' },
  { words: 'webhooks endpoints enable', synopsis: `ACCOUNT_ID WE_ID ${M}`, summary: 'Resumes deliveries to a disabled endpoint.' },
  { words: 'webhooks endpoints delete', synopsis: `ACCOUNT_ID WE_ID ${M}`, summary: 'Deletes an endpoint.' },
  {
    words: 'webhooks endpoints rotate-secret',
    synopsis: `ACCOUNT_ID WE_ID ${M}`,
    summary: 'Makes a new signing secret and prints it ONCE; the previous one keeps signing for an overlap window.',
  },
  {
    words: 'webhooks events list',
    synopsis: `ACCOUNT_ID ${M} [--limit N] [--starting-after EVT_ID]`,
    summary: "Lists the account's events, newest first.",
  },
  {
    words: 'webhooks events resend',
    synopsis: `ACCOUNT_ID EVT_ID ${M} [--endpoint WE_ID]`,
    summary: 'Sends an event again (same evt_ id) to every endpoint, or to one.',
  },
  {
    words: 'webhooks attempts list',
    synopsis: `ACCOUNT_ID EVT_ID ${M}`,
    summary: 'Lists every delivery attempt of an event: status, error, latency, next attempt, the body sent.',
  },
  { words: 'webhooks ping', synopsis: `ACCOUNT_ID WE_ID ${M}`, summary: 'Sends a signed ping event to an endpoint.' },
];

export interface WebhookCommandOptions {
  mode?: string;
  url?: string;
  events?: string;
  description?: string;
  endpoint?: string;
  limit?: string;
  'starting-after'?: string;
}

export interface WebhookCommandContext {
  accountId: string;
  webhooksAddress: string;
  timeoutMs: number;
}

const TWO_WORD_GROUPS = new Set(['endpoints', 'events', 'attempts']);

/**
 * The words after `webhooks` → the command ("endpoints add", "ping"…), the account, and the rest.
 * E.g. ["endpoints", "show", "acct_1", "we_1"] → { command: "endpoints show", accountId: "acct_1", positionals: ["we_1"] }.
 */
export function splitWebhookArguments(words: readonly string[]): { command: string; accountId: string | undefined; positionals: string[] } {
  const width = TWO_WORD_GROUPS.has(words[0] ?? '') ? 2 : 1;
  return { command: words.slice(0, width).join(' '), accountId: words[width], positionals: words.slice(width + 1) };
}

const seconds = (value: bigint | undefined): number | null => (value === undefined ? null : Number(value));

function endpointView(e: Endpoint | undefined): Record<string, unknown> {
  if (!e) throw new ApiError('internal_error');
  return {
    id: e.id,
    url: e.url,
    description: e.description ?? null,
    enabled_events: e.enabledEvents.join(','),
    status: e.status,
    disabled_reason: e.disabledReason ?? null,
    disabled_at: seconds(e.disabledAt),
    livemode: e.livemode,
    created: Number(e.created),
    failing_since: seconds(e.failingSince),
    last_success_at: seconds(e.lastSuccessAt),
  };
}

function eventView(e: Event | undefined): Record<string, unknown> {
  if (!e) throw new ApiError('internal_error');
  return { id: e.id, type: e.type, created: Number(e.created), livemode: e.livemode, payment: e.paymentId ?? null };
}

function attemptView(a: DeliveryAttempt): Record<string, unknown> {
  return {
    id: a.id,
    endpoint: a.endpointId,
    delivery: a.deliveryId,
    attempt: a.attemptNumber,
    at: new Date(Number(a.attemptedAt)).toISOString(),
    status: a.statusCode ?? null,
    error: a.error ?? null,
    succeeded: a.succeeded,
    latency_ms: a.latencyMs,
    response: a.responseSnippet ?? null,
    next_attempt_at: a.nextAttemptAt === undefined ? null : new Date(Number(a.nextAttemptAt)).toISOString(),
    request_body: a.requestBody,
  };
}

const eventTypes = (value: string | undefined): string[] | undefined =>
  value === undefined
    ? undefined
    : value
        .split(',')
        .map((t) => t.trim())
        .filter((t) => t !== '');

/**
 * Runs one `webhooks …` command for `context.accountId` in `--mode`. `command` and `positionals`
 * as splitWebhookArguments gives them. Throws UsageError for a bad command line and ApiError
 * for what the service refused.
 */
export async function runWebhookCommand(
  command: string,
  positionals: string[],
  options: WebhookCommandOptions,
  context: WebhookCommandContext,
): Promise<Record<string, unknown> | Record<string, unknown>[]> {
  const ctx = operatorContext(context.accountId, parseMode(options.mode));
  const client = createServiceClient(WebhooksService, context.webhooksAddress, { timeoutMs: context.timeoutMs });
  try {
    switch (command) {
      case 'endpoints add': {
        const created = await client.createEndpoint(
          { url: need(options.url, '--url'), description: options.description, enabledEvents: eventTypes(options.events) ?? [] },
          ctx,
        );
        return {
          ...endpointView(created.endpoint),
          secret: created.secret,
          notice: 'Store this signing secret now: it is shown only once.',
        };
      }
      case 'endpoints list':
        return (await client.listEndpoints({}, ctx)).endpoints.map(endpointView);
      case 'endpoints show':
        return endpointView((await client.getEndpoint({ id: need(positionals[0], 'WE_ID') }, ctx)).endpoint);
      case 'endpoints update': {
        const events = eventTypes(options.events);
        const updated = await client.updateEndpoint(
          {
            id: need(positionals[0], 'WE_ID'),
            url: options.url,
            description: options.description,
            enabledEvents: events ?? [],
            replaceEnabledEvents: events !== undefined,
          },
          ctx,
        );
        return endpointView(updated.endpoint);
      }
      case 'endpoints disable':
        return endpointView((await client.disableEndpoint({ id: need(positionals[0], 'WE_ID') }, ctx)).endpoint);
      case 'endpoints enable':
        return endpointView((await client.enableEndpoint({ id: need(positionals[0], 'WE_ID') }, ctx)).endpoint);
      case 'endpoints delete':
        return { id: (await client.deleteEndpoint({ id: need(positionals[0], 'WE_ID') }, ctx)).id, deleted: true };
      case 'endpoints rotate-secret': {
        const rotated = await client.rotateEndpointSecret({ id: need(positionals[0], 'WE_ID') }, ctx);
        return {
          ...endpointView(rotated.endpoint),
          secret: rotated.secret,
          previous_secret_expires_at: Number(rotated.previousSecretExpiresAt),
          notice:
            'Store this signing secret now: it is shown only once. The previous secret keeps signing until previous_secret_expires_at.',
        };
      }
      case 'events list': {
        const limit = options.limit === undefined ? 0 : Number(options.limit);
        const page = await client.listEvents({ limit, startingAfter: options['starting-after'] }, ctx);
        return page.events.map(eventView);
      }
      case 'events resend': {
        const resent = await client.resendEvent({ eventId: need(positionals[0], 'EVT_ID'), endpointId: options.endpoint }, ctx);
        return { ...eventView(resent.event), resent_to: resent.endpointIds.join(',') || null };
      }
      case 'attempts list':
        return (await client.listDeliveryAttempts({ eventId: need(positionals[0], 'EVT_ID') }, ctx)).attempts.map(attemptView);
      case 'ping':
        return eventView((await client.sendPing({ endpointId: need(positionals[0], 'WE_ID') }, ctx)).event);
      default:
        throw new UsageError(`unknown command: webhooks ${command || '(none)'}`);
    }
  } finally {
    client.close();
  }
}
