/**
 * Operator CLI: the `webhooks …` commands, over gRPC to the webhooks service, for the account named
 * after the command's words (`webhooks endpoints show ACCOUNT_ID WE_ID --mode test`).
 */
import { ApiError } from '@hc/errors';
import { createToolClient, type CallContext, type ServiceClient } from '@hc/grpc';
import { need, operatorContext, parseMode } from './arguments.ts';
import { accountOf, type CommandInput, type CommandResult, type OperatorCommand } from './operator-command.ts';
import { WebhooksService, type DeliveryAttempt, type Endpoint, type Event } from '@hc/proto/webhooks/v1';

const M = '--mode test|live';

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

interface WebhooksCall {
  client: ServiceClient<typeof WebhooksService>;
  ctx: CallContext;
  /** The argument after ACCOUNT_ID (WE_ID or EVT_ID), when the command takes one. */
  object: (what: string) => string;
}

/** Checks the account, then runs `call` with a webhooks client for it in `--mode`, closed after it. */
async function withWebhooks(input: CommandInput, call: (webhooks: WebhooksCall) => Promise<CommandResult>): Promise<CommandResult> {
  const account = await accountOf(input);
  const ctx = operatorContext(account.id, parseMode(input.values.mode));
  const client = createToolClient(WebhooksService, input.config.WEBHOOKS_GRPC_ADDRESS, input.config.GRPC_TIMEOUT_MS);
  try {
    return await call({ client, ctx, object: (what) => need(input.args[1], what) });
  } finally {
    client.close();
  }
}

/** An endpoint command that names one endpoint and prints it after the change. */
function endpointCommand(
  words: string,
  summary: string,
  change: (client: ServiceClient<typeof WebhooksService>, id: string, ctx: CallContext) => Promise<{ endpoint?: Endpoint | undefined }>,
): OperatorCommand {
  return {
    words,
    synopsis: `ACCOUNT_ID WE_ID ${M}`,
    summary,
    audited: true,
    run: (input) =>
      withWebhooks(input, async ({ client, ctx, object }) => endpointView((await change(client, object('WE_ID'), ctx)).endpoint)),
  };
}

/** Every `webhooks …` command (see help.ts). */
export const WEBHOOK_COMMANDS: OperatorCommand[] = [
  {
    words: 'webhooks endpoints add',
    synopsis: `ACCOUNT_ID ${M} --url URL [--events TYPE,TYPE|*] [--description TEXT]`,
    summary: 'Registers an endpoint for every event of that mode (or the listed types) and prints its signing secret ONCE.',
    details: [
      'The URL must be https in production; ./scripts/start allows http on this machine (WEBHOOKS_ALLOW_PRIVATE_TARGETS).',
      'Deliveries are signed by the Standard Webhooks scheme with the printed whsec_… secret (docs/webhooks.md).',
    ],
    audited: true,
    run: (input) =>
      withWebhooks(input, async ({ client, ctx }) => {
        const { values } = input;
        const created = await client.createEndpoint(
          { url: need(values.url, '--url'), description: values.description, enabledEvents: eventTypes(values.events) ?? [] },
          ctx,
        );
        return {
          ...endpointView(created.endpoint),
          secret: created.secret,
          notice: 'Store this signing secret now: it is shown only once.',
        };
      }),
  },
  {
    words: 'webhooks endpoints list',
    synopsis: `ACCOUNT_ID ${M}`,
    summary: "Lists the account's endpoints in that mode.",
    audited: false,
    run: (input) => withWebhooks(input, async ({ client, ctx }) => (await client.listEndpoints({}, ctx)).endpoints.map(endpointView)),
  },
  {
    words: 'webhooks endpoints show',
    synopsis: `ACCOUNT_ID WE_ID ${M}`,
    summary: 'Prints one endpoint.',
    audited: false,
    run: (input) =>
      withWebhooks(input, async ({ client, ctx, object }) =>
        endpointView((await client.getEndpoint({ id: object('WE_ID') }, ctx)).endpoint),
      ),
  },
  {
    words: 'webhooks endpoints update',
    synopsis: `ACCOUNT_ID WE_ID ${M} [--url URL] [--events TYPE,TYPE|*] [--description TEXT]`,
    summary: 'Changes what is given of an endpoint’s URL, event types and description.',
    audited: true,
    run: (input) =>
      withWebhooks(input, async ({ client, ctx, object }) => {
        const { values } = input;
        const events = eventTypes(values.events);
        const updated = await client.updateEndpoint(
          {
            id: object('WE_ID'),
            url: values.url,
            description: values.description,
            enabledEvents: events ?? [],
            replaceEnabledEvents: events !== undefined,
          },
          ctx,
        );
        return endpointView(updated.endpoint);
      }),
  },
  endpointCommand('webhooks endpoints disable', 'Stops deliveries to an endpoint.', (client, id, ctx) =>
    client.disableEndpoint({ id }, ctx),
  ),
  endpointCommand('webhooks endpoints enable', 'Resumes deliveries to a disabled endpoint.', (client, id, ctx) =>
    client.enableEndpoint({ id }, ctx),
  ),
  {
    words: 'webhooks endpoints delete',
    synopsis: `ACCOUNT_ID WE_ID ${M}`,
    summary: 'Deletes an endpoint.',
    audited: true,
    run: (input) =>
      withWebhooks(input, async ({ client, ctx, object }) => ({
        id: (await client.deleteEndpoint({ id: object('WE_ID') }, ctx)).id,
        deleted: true,
      })),
  },
  {
    words: 'webhooks endpoints rotate-secret',
    synopsis: `ACCOUNT_ID WE_ID ${M}`,
    summary: 'Makes a new signing secret and prints it ONCE; the previous one keeps signing for an overlap window.',
    audited: true,
    run: (input) =>
      withWebhooks(input, async ({ client, ctx, object }) => {
        const rotated = await client.rotateEndpointSecret({ id: object('WE_ID') }, ctx);
        return {
          ...endpointView(rotated.endpoint),
          secret: rotated.secret,
          previous_secret_expires_at: Number(rotated.previousSecretExpiresAt),
          notice:
            'Store this signing secret now: it is shown only once. The previous secret keeps signing until previous_secret_expires_at.',
        };
      }),
  },
  {
    words: 'webhooks events list',
    synopsis: `ACCOUNT_ID ${M} [--limit N] [--starting-after EVT_ID]`,
    summary: "Lists the account's events, newest first.",
    audited: false,
    run: (input) =>
      withWebhooks(input, async ({ client, ctx }) => {
        const { values } = input;
        const limit = values.limit === undefined ? 0 : Number(values.limit);
        return (await client.listEvents({ limit, startingAfter: values['starting-after'] }, ctx)).events.map(eventView);
      }),
  },
  {
    words: 'webhooks events resend',
    synopsis: `ACCOUNT_ID EVT_ID ${M} [--endpoint WE_ID]`,
    summary: 'Sends an event again (same evt_ id) to every endpoint, or to one.',
    audited: true,
    run: (input) =>
      withWebhooks(input, async ({ client, ctx, object }) => {
        const resent = await client.resendEvent({ eventId: object('EVT_ID'), endpointId: input.values.endpoint }, ctx);
        return { ...eventView(resent.event), resent_to: resent.endpointIds.join(',') || null };
      }),
  },
  {
    words: 'webhooks attempts list',
    synopsis: `ACCOUNT_ID EVT_ID ${M}`,
    summary: 'Lists every delivery attempt of an event: status, error, latency, next attempt, the body sent.',
    audited: false,
    run: (input) =>
      withWebhooks(input, async ({ client, ctx, object }) =>
        (await client.listDeliveryAttempts({ eventId: object('EVT_ID') }, ctx)).attempts.map(attemptView),
      ),
  },
  {
    words: 'webhooks ping',
    synopsis: `ACCOUNT_ID WE_ID ${M}`,
    summary: 'Sends a signed ping event to an endpoint.',
    audited: true,
    run: (input) =>
      withWebhooks(input, async ({ client, ctx, object }) =>
        eventView((await client.sendPing({ endpointId: object('WE_ID') }, ctx)).event),
      ),
  },
];
