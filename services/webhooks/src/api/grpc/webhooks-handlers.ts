import type { ServiceHandlers } from '@hc/grpc';
import type { WebhooksService } from '@hc/proto/webhooks/v1';
import type { WebhooksDependencies } from '../../use-cases/dependencies.ts';
import { getEvent, latestEventId, listDeliveryAttempts, listEvents, listEventsAfter } from '../../use-cases/event-log.ts';
import { createEndpoint } from '../../use-cases/create-endpoint.ts';
import { deleteEndpoint } from '../../use-cases/delete-endpoint.ts';
import { getEndpoint } from '../../use-cases/get-endpoint.ts';
import { listEndpoints } from '../../use-cases/list-endpoints.ts';
import { rotateEndpointSecret } from '../../use-cases/rotate-endpoint-secret.ts';
import { setEndpointEnabled } from '../../use-cases/set-endpoint-enabled.ts';
import { updateEndpoint } from '../../use-cases/update-endpoint.ts';
import { resendEvent } from '../../use-cases/resend-event.ts';
import { sendPing } from '../../use-cases/send-ping.ts';
import { checkEndpoint } from '../../use-cases/check-endpoint.ts';
import { attemptMessage, checkReportMessage, endpointMessage, eventMessage } from './messages.ts';
import { unixSecondsBig } from '@hc/conversions';

/** gRPC handlers: proto in, use case, proto out. Account and mode come from the call's metadata only. */
export function webhooksHandlers(deps: WebhooksDependencies): ServiceHandlers<typeof WebhooksService> {
  return {
    async createEndpoint(request, ctx) {
      const { endpoint, secret, created } = await createEndpoint(
        deps,
        ctx,
        { url: request.url, description: request.description, enabledEvents: request.enabledEvents },
        request.id,
      );
      return { endpoint: endpointMessage(endpoint), secret, created };
    },

    async listEndpoints(_request, ctx) {
      return { endpoints: (await listEndpoints(deps, ctx)).map(endpointMessage) };
    },

    async getEndpoint(request, ctx) {
      const endpoint = await getEndpoint(deps, ctx, request.id);
      // Only the gateway's replay of an idempotent create asks for the secret (docs/adr/0073).
      const secret = request.withSecret ? await deps.endpoints.currentSecret(endpoint.id, deps.now()) : undefined;
      return { endpoint: endpointMessage(endpoint), secret };
    },

    async updateEndpoint(request, ctx) {
      const endpoint = await updateEndpoint(deps, ctx, request.id, {
        url: request.url,
        description: request.description,
        enabledEvents: request.replaceEnabledEvents ? request.enabledEvents : undefined,
      });
      return { endpoint: endpointMessage(endpoint) };
    },

    async disableEndpoint(request, ctx) {
      return { endpoint: endpointMessage(await setEndpointEnabled(deps, ctx, request.id, false)) };
    },

    async enableEndpoint(request, ctx) {
      return { endpoint: endpointMessage(await setEndpointEnabled(deps, ctx, request.id, true)) };
    },

    async deleteEndpoint(request, ctx) {
      await deleteEndpoint(deps, ctx, request.id);
      return { id: request.id };
    },

    async rotateEndpointSecret(request, ctx) {
      const rotated = await rotateEndpointSecret(deps, ctx, request.id);
      return {
        endpoint: endpointMessage(rotated.endpoint),
        secret: rotated.secret,
        previousSecretExpiresAt: unixSecondsBig(rotated.previousSecretExpiresAt),
      };
    },

    ...eventLogHandlers(deps),

    async resendEvent(request, ctx) {
      const { event, endpointIds } = await resendEvent(deps, ctx, request.eventId, request.endpointId);
      return { event: eventMessage(event), endpointIds };
    },

    async sendPing(request, ctx) {
      return { event: eventMessage(await sendPing(deps, ctx, request.endpointId)) };
    },

    async checkEndpoint(request, ctx) {
      return checkReportMessage(await checkEndpoint(deps, ctx, request.endpointId));
    },
  };
}

type EventLogCalls = 'listEvents' | 'listEventsAfter' | 'getLatestEventId' | 'getEvent' | 'listDeliveryAttempts';

/** The account's event log and each event's delivery attempts: reads only. */
function eventLogHandlers(deps: WebhooksDependencies): Pick<ServiceHandlers<typeof WebhooksService>, EventLogCalls> {
  return {
    async listEvents(request, ctx) {
      const page = await listEvents(deps, ctx, request.limit, request.startingAfter, {
        type: request.type,
        createdGte: request.createdGte,
        createdLt: request.createdLt,
        maxAgeSeconds: request.maxAgeSeconds,
        paymentId: request.paymentId,
      });
      return { events: page.events.map(eventMessage), hasMore: page.hasMore };
    },

    async listEventsAfter(request, ctx) {
      const page = await listEventsAfter(deps, ctx, {
        limit: request.limit,
        afterId: request.afterId,
        maxAgeSeconds: request.maxAgeSeconds,
        settleMs: request.settleMs,
      });
      return { events: page.events.map(eventMessage), hasMore: page.hasMore };
    },

    async getLatestEventId(request, ctx) {
      const id = await latestEventId(deps, ctx, request.maxAgeSeconds);
      return id === null ? {} : { id };
    },

    async getEvent(request, ctx) {
      return { event: eventMessage(await getEvent(deps, ctx, request.id, request.maxAgeSeconds)) };
    },

    async listDeliveryAttempts(request, ctx) {
      return { attempts: (await listDeliveryAttempts(deps, ctx, request.eventId)).map(attemptMessage) };
    },
  };
}
