/**
 * Every route of the hosted pages, named once and built from here everywhere (routes, templates,
 * redirects, tests). Payment links and checkout (`chk_`) pages will add their own groups beside `pay`.
 */
export const paths = {
  pay: {
    page: '/pay/:id',
    start: '/pay/:id/start',
    provider: '/pay/:id/provider',
    simulate: '/pay/:id/simulate',
    status: '/pay/:id/status',
  },
  /** The read-only tracking page of a payment link: its state, no actions. */
  track: '/track/:id',
  /** Dashboard checkouts (`chk_`): the page or pricing table, the widget's framed page, and the visit's POST. */
  checkout: {
    page: '/c/:id',
    embed: '/c/:id/embed',
    pay: '/c/:id/pay',
  },
  /** The API reference merchants read: a static file built from docs/openapi.json (api-reference-route.ts). */
  docs: '/docs',
  /** The platform's statement public keys, a JWK Set (statement-keys-route.ts, docs/adr/0088). */
  statementKeys: '/.well-known/hc-statement-keys.json',
  assets: '/pay/assets',
  health: '/healthz',
} as const;

/** A path template with its `:id` filled in (percent-encoded). */
export function pathTo(template: string, id: string): string {
  return template.replace(':id', encodeURIComponent(id));
}

/** The paths of one payment, as the templates use them. */
export function payPaths(id: string): Record<keyof typeof paths.pay, string> {
  return {
    page: pathTo(paths.pay.page, id),
    start: pathTo(paths.pay.start, id),
    provider: pathTo(paths.pay.provider, id),
    simulate: pathTo(paths.pay.simulate, id),
    status: pathTo(paths.pay.status, id),
  };
}
