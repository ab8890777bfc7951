/** What one HTTP attempt came to, as the sender saw it. */
export type AttemptResult =
  | { readonly kind: 'response'; readonly statusCode: number; readonly retryAfter: string | undefined; readonly snippet: string }
  | { readonly kind: 'error'; readonly error: string };

/**
 * succeeded: any 2xx. gone: 410, the receiver says the endpoint no longer exists, so it is disabled.
 * failed: anything else, redirects (3xx) included — they are never followed, because a redirect
 * could lead a signed delivery to an address the SSRF guard never checked.
 */
export type AttemptVerdict = 'succeeded' | 'gone' | 'failed';

export function judgeAttempt(result: AttemptResult): AttemptVerdict {
  if (result.kind === 'error') return 'failed';
  if (result.statusCode >= 200 && result.statusCode < 300) return 'succeeded';
  if (result.statusCode === 410) return 'gone';
  return 'failed';
}

/**
 * Whether an endpoint whose delivery just ran out of attempts is disabled as "failing": no
 * successful attempt since `failingSince`, and that is at least `thresholdMs` ago.
 */
export function isFailingTooLong(failingSince: Date | null, now: Date, thresholdMs: number): boolean {
  return failingSince !== null && now.getTime() - failingSince.getTime() >= thresholdMs;
}
