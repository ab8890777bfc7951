import type { Response } from 'express';

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * How every answer of the API leaves: a JSON text, its status, type and length, written at once.
 * Express's `res.json`/`res.send` would look the type up, parse and re-format it to add the charset,
 * copy a body over 1,000 characters into a Buffer, and check freshness for an ETag the API never sends
 * (`Cache-Control: no-store` on every answer) — work each request paid for nothing (issue 48). Node
 * itself leaves the body out of a HEAD answer, keeping its length.
 */
export function answerJsonText(res: Response, status: number, text: string): void {
  res.statusCode = status;
  res.setHeader('Content-Type', JSON_TYPE);
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}

/** An object (or array) answered as JSON. */
export function answerJson(res: Response, status: number, value: unknown): void {
  answerJsonText(res, status, JSON.stringify(value));
}
