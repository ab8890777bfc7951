import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import helmet from 'helmet';

/** A script-src entry: a fixed source, or one computed per response (a CSP nonce). */
export type ScriptSource = string | ((req: IncomingMessage, res: ServerResponse) => string);

/** A header as helmet sets it. */
export type Header = readonly [name: string, value: string];

/** What a helmet middleware does to every response: the headers it sets, and those it removes (X-Powered-By). */
export interface HelmetHeaders {
  readonly set: readonly Header[];
  readonly removed: readonly string[];
}

/**
 * What a helmet middleware does, taken once by running it against a recorder: none of its headers
 * depends on the request (a per-response CSP source is written in later, `strictPageHeaders`), so each
 * response copies them instead of running helmet's dozen middlewares (issue 33, issue 50). helmet
 * stays the source of truth for what the headers say.
 */
export function headersOf(middleware: ReturnType<typeof helmet>): HelmetHeaders {
  const set: Header[] = [];
  const removed: string[] = [];
  const recorder = {
    setHeader: (name: string, value: string) => set.push([name, String(value)]),
    removeHeader: (name: string) => removed.push(name),
  };
  let finished = false;
  middleware({} as IncomingMessage, recorder as unknown as ServerResponse, () => (finished = true));
  if (!finished) throw new Error('helmet did not finish synchronously');
  return { set, removed };
}

/**
 * Stands for the script sources computed per response while helmet's headers are taken: `'<slot>-<n>'`
 * for `scriptSrc[n]`. Random per process, so no fixed source can be mistaken for one.
 */
const SLOT = `hc-slot-${randomBytes(9).toString('hex')}`;
const SLOT_PATTERN = new RegExp(`'${SLOT}-(\\d+)'`);

/** A header value with per-response sources: its text cut at their places, and which source goes in each. */
interface SlottedHeader {
  readonly name: string;
  readonly texts: readonly string[];
  readonly sources: readonly ((req: IncomingMessage, res: ServerResponse) => string)[];
}

function slotted(name: string, value: string, scriptSrc: readonly ScriptSource[]): SlottedHeader {
  // split with a capturing group alternates text, slot number, text, …
  const pieces = value.split(SLOT_PATTERN);
  const texts = pieces.filter((_, i) => i % 2 === 0);
  const sources = pieces
    .filter((_, i) => i % 2 === 1)
    .map((n) => scriptSrc[Number(n)] as (req: IncomingMessage, res: ServerResponse) => string);
  return { name, texts, sources };
}

/**
 * The security headers of our server-rendered pages (helmet): a strict CSP — nothing by default,
 * scripts only from `scriptSrc`, styles, images and fetches from our own origin, forms posting to our
 * own origin, no framing, no <base> — no referrer (page addresses name payments and customers), and
 * no caching (pages show a buyer's or a merchant's data). A route may widen its own response's policy
 * afterwards (pages' allowFraming, allowFormTargets). helmet's headers are taken once (`headersOf`);
 * a script source given as a function is asked for each response and written into its place.
 */
export function strictPageHeaders(scriptSrc: readonly ScriptSource[]): RequestHandler[] {
  const { set: recorded, removed } = headersOf(
    helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'none'"],
          scriptSrc: scriptSrc.map((source, n) => (typeof source === 'string' ? source : `'${SLOT}-${n}'`)),
          styleSrc: ["'self'"],
          imgSrc: ["'self'"],
          connectSrc: ["'self'"],
          formAction: ["'self'"],
          frameAncestors: ["'none'"],
          baseUri: ["'none'"],
        },
      },
      referrerPolicy: { policy: 'no-referrer' },
      crossOriginEmbedderPolicy: false,
    }),
  );
  const fixed = recorded.filter(([, value]) => !SLOT_PATTERN.test(value));
  const perResponse = recorded.filter(([, value]) => SLOT_PATTERN.test(value)).map(([name, value]) => slotted(name, value, scriptSrc));
  const headers: RequestHandler = (req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    for (const name of removed) res.removeHeader(name);
    for (const [name, value] of fixed) res.setHeader(name, value);
    for (const { name, texts, sources } of perResponse) {
      let value = texts[0]!;
      for (let i = 0; i < sources.length; i += 1) value += sources[i]!(req, res) + texts[i + 1]!;
      res.setHeader(name, value);
    }
    next();
  };
  return [headers];
}
