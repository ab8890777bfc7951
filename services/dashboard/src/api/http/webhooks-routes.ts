import { type Router, type Request, type Response } from 'express';
import type { DeliveryAttempt, Endpoint, Event } from '@hc/proto/webhooks/v1';
import { describeEvents, enabledEventsFrom, EVENT_TYPE_CHOICES } from '../../domain/endpoint-forms.ts';
import { formatTime, pageSize } from '../../domain/format.ts';
import type { DashboardDependencies } from '../../use-cases/dependencies.ts';
import { redirectWithFlash } from './auth-routes.ts';
import { formRefusal, formValues } from './forms.ts';
import { modeOf } from './mode.ts';
import { modePath } from './paths.ts';
import type { PlatformClients } from '../../adapters/platform-clients.ts';
import { ENDPOINT_CHECK_DEADLINE_MS } from '@hc/grpc';
import { isInvalidCursor, renderNoSuchPage, renderPage } from './render.ts';
import { callContext } from './session.ts';
import { signedInRouter } from './routers.ts';

const endpointPath = (res: Response, id: string) => modePath(modeOf(res), 'developers', 'endpoints', id);

export function endpointView(endpoint: Endpoint) {
  return {
    id: endpoint.id,
    url: endpoint.url,
    description: endpoint.description ?? '',
    events: describeEvents(endpoint.enabledEvents),
    enabledEvents: endpoint.enabledEvents,
    allEvents: endpoint.enabledEvents.length === 0 || endpoint.enabledEvents.includes('*'),
    status: endpoint.status,
    disabledReason: endpoint.disabledReason ?? null,
    failingSince: formatTime(endpoint.failingSince),
    lastSuccessAt: formatTime(endpoint.lastSuccessAt),
    created: formatTime(endpoint.created),
  };
}

export function eventView(event: Event) {
  return { id: event.id, type: event.type, paymentId: event.paymentId ?? null, created: formatTime(event.created) };
}

function attemptView(attempt: DeliveryAttempt) {
  return {
    endpointId: attempt.endpointId,
    deliveryId: attempt.deliveryId,
    number: attempt.attemptNumber,
    at: formatTime(new Date(Number(attempt.attemptedAt))),
    statusCode: attempt.statusCode ?? null,
    error: attempt.error ?? null,
    succeeded: attempt.succeeded,
    latencyMs: attempt.latencyMs,
    response: attempt.responseSnippet ?? '',
    nextAttemptAt: attempt.nextAttemptAt === undefined ? null : formatTime(new Date(Number(attempt.nextAttemptAt))),
  };
}

/** The endpoint form's fields as the webhooks service takes them. */
function endpointFields(req: Request) {
  const { url, description } = formValues(req, ['url', 'description']);
  const body = (req.body ?? {}) as Record<string, unknown>;
  return { url: url!.trim(), description: description!.trim(), enabledEvents: enabledEventsFrom(body['scope'], body['events']) };
}

/** Re-renders an endpoint form with the service's refusal (bad URL, unknown event type), status 400. */
function refuseForm(res: Response, error: unknown, form: ReturnType<typeof endpointFields>, endpointId: string | null): void {
  const refusal = formRefusal(error);
  if (!refusal) throw error;
  renderPage(
    res,
    'developers-endpoint-form.njk',
    {
      title: 'Error: Webhook endpoint',
      area: 'developers',
      form,
      endpointId,
      choices: EVENT_TYPE_CHOICES,
      problem: { message: refusal.message, field: refusal.field ?? '' },
    },
    refusal.httpStatus,
  );
}

/**
 * Webhook endpoints and the event log under Developers (the webhooks service): add, edit, disable and
 * enable, rotate the signing secret (the old one keeps signing through the overlap window), send a
 * ping, check a Test endpoint; each event's delivery attempts, and resend. Signing secrets are shown once, like API keys.
 */
export function webhooksRoutes(platform: PlatformClients, deps: DashboardDependencies): Router {
  const router = signedInRouter('/dashboard/:mode');
  const blank = { url: '', description: '', enabledEvents: [] as string[] };

  router.get('/developers/endpoints/new', (_req, res) => {
    renderPage(res, 'developers-endpoint-form.njk', {
      title: 'Add a webhook endpoint',
      area: 'developers',
      form: blank,
      endpointId: null,
      choices: EVENT_TYPE_CHOICES,
      problem: null,
    });
  });

  router.post('/developers/endpoints', async (req, res) => {
    const form = endpointFields(req);
    let created;
    try {
      created = await platform.webhooks.createEndpoint(
        { url: form.url, description: form.description || undefined, enabledEvents: form.enabledEvents },
        callContext(res, modeOf(res)),
      );
    } catch (error) {
      return refuseForm(res, error, form, null);
    }
    renderPage(res, 'developers-secret.njk', {
      title: 'Endpoint added',
      area: 'developers',
      endpoint: endpointView(created.endpoint!),
      secret: created.secret,
      until: null,
    });
  });

  router.get('/developers/endpoints/:id', async (req, res) => {
    const ctx = callContext(res, modeOf(res));
    const { endpoint } = await platform.webhooks.getEndpoint({ id: String(req.params['id']) }, ctx);
    renderPage(res, 'developers-endpoint.njk', {
      title: 'Webhook endpoint',
      area: 'developers',
      endpoint: endpointView(endpoint!),
      choices: EVENT_TYPE_CHOICES,
    });
  });

  router.post('/developers/endpoints/:id', async (req, res) => {
    const id = String(req.params['id']);
    const form = endpointFields(req);
    try {
      await platform.webhooks.updateEndpoint(
        { id, url: form.url, description: form.description, enabledEvents: form.enabledEvents, replaceEnabledEvents: true },
        callContext(res, modeOf(res)),
      );
    } catch (error) {
      return refuseForm(res, error, form, id);
    }
    await redirectWithFlash(deps, res, endpointPath(res, id), 'Endpoint saved.');
  });

  for (const [action, call, message] of [
    ['disable', 'disableEndpoint', 'Endpoint disabled: nothing is delivered to it until you enable it.'],
    ['enable', 'enableEndpoint', 'Endpoint enabled: deliveries start again.'],
  ] as const) {
    router.post(`/developers/endpoints/:id/${action}`, async (req, res) => {
      const id = String(req.params['id']);
      await platform.webhooks[call]({ id }, callContext(res, modeOf(res)));
      await redirectWithFlash(deps, res, endpointPath(res, id), message);
    });
  }

  endpointActionRoutes(router, platform, deps);
  eventLogRoutes(router, platform, deps);
  return router;
}

/** An endpoint's actions: send a ping, check a Test endpoint, rotate the signing secret. */
function endpointActionRoutes(router: Router, platform: PlatformClients, deps: DashboardDependencies): void {
  router.post('/developers/endpoints/:id/ping', async (req, res) => {
    const id = String(req.params['id']);
    let event;
    try {
      ({ event } = await platform.webhooks.sendPing({ endpointId: id }, callContext(res, modeOf(res))));
    } catch (error) {
      // A disabled endpoint (the page was stale): say so on the endpoint's page.
      const refusal = formRefusal(error);
      if (!refusal) throw error;
      return redirectWithFlash(deps, res, endpointPath(res, id), `No ping sent: ${refusal.message}`);
    }
    await redirectWithFlash(deps, res, endpointPath(res, id), `Ping ${event?.id ?? ''} queued: see its delivery under Events.`);
  });

  // Test endpoints only (the service refuses a Live one): six check deliveries, graded N/6 (docs/adr/0087).
  router.post('/developers/endpoints/:id/check', async (req, res) => {
    const id = String(req.params['id']);
    let report;
    try {
      const options = { timeoutMs: ENDPOINT_CHECK_DEADLINE_MS };
      report = await platform.webhooks.checkEndpoint({ endpointId: id }, callContext(res, modeOf(res)), options);
    } catch (error) {
      // A Live endpoint, or over the per-account budget: say so on the endpoint's page.
      const refusal = formRefusal(error);
      if (!refusal) throw error;
      return redirectWithFlash(deps, res, endpointPath(res, id), `Not checked: ${refusal.message}`);
    }
    const passed = report.checks.filter((c) => c.passed).length;
    renderPage(res, 'developers-endpoint-check.njk', {
      title: `Endpoint check: ${passed}/${report.checks.length}`,
      area: 'developers',
      endpointId: id,
      url: report.url,
      score: `${passed}/${report.checks.length}`,
      timeoutSeconds: report.timeoutMs / 1000,
      checks: report.checks.map((c) => ({ ...c, outcome: c.statusCode === undefined ? (c.error ?? 'no answer') : `HTTP ${c.statusCode}` })),
    });
  });

  router.post('/developers/endpoints/:id/rotate', async (req, res) => {
    const rotated = await platform.webhooks.rotateEndpointSecret({ id: String(req.params['id']) }, callContext(res, modeOf(res)));
    renderPage(res, 'developers-secret.njk', {
      title: 'New signing secret',
      area: 'developers',
      endpoint: endpointView(rotated.endpoint!),
      secret: rotated.secret,
      until: formatTime(rotated.previousSecretExpiresAt),
    });
  });
}

/** The event log: a page of events, one event with its delivery attempts, and resend. */
function eventLogRoutes(router: Router, platform: PlatformClients, deps: DashboardDependencies): void {
  router.get('/developers/events', async (req, res) => {
    const mode = modeOf(res);
    const after = typeof req.query['starting_after'] === 'string' ? req.query['starting_after'] : undefined;
    let page;
    try {
      page = await platform.webhooks.listEvents(
        { limit: pageSize(req.query['limit']), startingAfter: after, maxAgeSeconds: 0n },
        callContext(res, mode),
      );
    } catch (error) {
      // A cursor of another account or mode, or no event at all: not a page of this list.
      if (isInvalidCursor(error)) return renderNoSuchPage(res);
      throw error;
    }
    const last = page.events.at(-1);
    renderPage(res, 'developers-events.njk', {
      title: 'Webhook events',
      area: 'developers',
      events: page.events.map(eventView),
      next: page.hasMore && last ? `${modePath(mode, 'developers', 'events')}?starting_after=${encodeURIComponent(last.id)}` : null,
    });
  });

  router.get('/developers/events/:id', async (req, res) => {
    const ctx = callContext(res, modeOf(res));
    const id = String(req.params['id']);
    const [{ event }, { attempts }, { endpoints }] = await Promise.all([
      platform.webhooks.getEvent({ id, maxAgeSeconds: 0n }, ctx),
      platform.webhooks.listDeliveryAttempts({ eventId: id }, ctx),
      platform.webhooks.listEndpoints({}, ctx),
    ]);
    renderPage(res, 'developers-event.njk', {
      title: `Event ${id}`,
      area: 'developers',
      event: { ...eventView(event!), body: event!.body },
      attempts: attempts.map(attemptView),
      endpoints: endpoints.map(endpointView),
    });
  });

  router.post('/developers/events/:id/resend', async (req, res) => {
    const id = String(req.params['id']);
    const endpointId = formValues(req, ['endpoint'])['endpoint'] || undefined;
    let endpointIds: string[];
    try {
      ({ endpointIds } = await platform.webhooks.resendEvent({ eventId: id, endpointId }, callContext(res, modeOf(res))));
    } catch (error) {
      // The chosen endpoint was disabled meanwhile: say so on the event's page.
      const refusal = formRefusal(error);
      if (!refusal) throw error;
      return redirectWithFlash(deps, res, modePath(modeOf(res), 'developers', 'events', id), `Not resent: ${refusal.message}`);
    }
    const message = endpointIds.length
      ? `Resent to ${endpointIds.length} endpoint(s).`
      : 'No enabled endpoint takes this event; nothing was sent.';
    await redirectWithFlash(deps, res, modePath(modeOf(res), 'developers', 'events', id), message);
  });
}
