import { randomBytes } from 'node:crypto';
import type { Request, Response } from 'express';
import { parse as parseCookies } from 'cookie';
import type { HostedSession } from '../../domain/hosted-session.ts';

/**
 * A page action's answer handed to the page it redirects to (POST, then 303 to /pay/{id}, so a reload
 * never sends the form again): checkout answered the action with the session's view, and the page
 * shows that view instead of asking checkout again, so the buyer's start click is one call into
 * checkout (issue 31). One-shot and short-lived: a browser cookie names the view (random, HttpOnly,
 * SameSite=Strict, only on that payment's path), the page takes it once, and anything else (a reload,
 * another tab, another replica of the pages, an old cookie) reads the session from checkout as before.
 */
const COOKIE = 'hc_view';
const TTL_MS = 15_000;
/** A bound on what a flood of actions can hold in memory; the oldest go first. */
const MAX_KEPT = 10_000;

interface Kept {
  readonly session: HostedSession;
  readonly until: number;
}

export interface AnsweredViews {
  /** Keeps `session` (the action's answer) for the next page load of this browser, then redirects there. */
  handOver(res: Response, session: HostedSession, pagePath: string): void;
  /** The view handed over to this browser for session `id`, once; undefined when there is none. */
  take(req: Request, res: Response, id: string, pagePath: string): HostedSession | undefined;
}

export function answeredViews(now: () => number = Date.now): AnsweredViews {
  const kept = new Map<string, Kept>();

  const prune = (): void => {
    const at = now();
    for (const [token, entry] of kept) if (entry.until <= at) kept.delete(token);
    while (kept.size >= MAX_KEPT) kept.delete(kept.keys().next().value!);
  };

  return {
    handOver(res, session, pagePath) {
      prune();
      const token = randomBytes(18).toString('base64url');
      kept.set(token, { session, until: now() + TTL_MS });
      res.cookie(COOKIE, token, { path: pagePath, httpOnly: true, sameSite: 'strict', secure: res.req.secure, maxAge: TTL_MS });
      res.redirect(303, pagePath);
    },
    take(req, res, id, pagePath) {
      const header = req.headers.cookie;
      const token = header ? parseCookies(header)[COOKIE] : undefined;
      if (token === undefined) return undefined;
      res.clearCookie(COOKIE, { path: pagePath, httpOnly: true, sameSite: 'strict', secure: req.secure });
      const entry = kept.get(token);
      kept.delete(token);
      if (!entry || entry.until <= now() || entry.session.id !== id) return undefined;
      return entry.session;
    },
  };
}
