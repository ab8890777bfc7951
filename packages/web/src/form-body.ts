import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type RequestHandler } from 'express';

/**
 * A form body (application/x-www-form-urlencoded) refused unless it is UTF-8 all the way down. Express
 * reads a byte that is not UTF-8 as U+FFFD, and keeps a value whose percent-encoding does not decode
 * (`%FF`, `%E2%82`, a lone `%`) as the raw text, `%` signs and all: either way a field would hold
 * something other than what was sent (docs/adr/0041). Checked here on the raw bytes, before parsing:
 * the bytes must be UTF-8, and every name and value must percent-decode to UTF-8 (browsers encode a
 * typed `%` as `%25`, so only hand-made bodies meet the refusal). A body in the one other charset
 * body-parser accepts, ISO-8859-1, has no invalid bytes and is left alone.
 */
export function formBodyProblem(raw: Buffer, charset: string): string | undefined {
  if (charset !== 'utf-8') return undefined;
  let text: string;
  try {
    text = utf8.decode(raw);
  } catch {
    return 'The form is not valid UTF-8.';
  }
  // `&`, `=` and `+` cannot be part of an escape, so the whole text decodes exactly when each name and
  // value does.
  try {
    decodeURIComponent(text);
  } catch {
    return 'The form holds a value that is not valid percent-encoded UTF-8.';
  }
  return undefined;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** body-parser turns a verify error into the request's error; status 400 is kept (http-errors). */
class UnreadableForm extends Error {
  readonly status = 400;
  readonly expose = true;
}

/**
 * express.urlencoded (flat names and values) with formBodyProblem applied: a refused body reaches the
 * app's error handler as an error with `status` 400, as a body over the limit arrives with 413.
 */
export function strictFormBody(options: { limit: string; parameterLimit: number }): RequestHandler {
  return express.urlencoded({
    extended: false,
    ...options,
    verify: (_req: IncomingMessage, _res: ServerResponse, raw: Buffer, charset: string) => {
      const problem = formBodyProblem(raw, charset);
      if (problem) throw new UnreadableForm(problem);
    },
  });
}
