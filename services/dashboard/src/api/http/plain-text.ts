import type { RequestHandler } from 'express';
import { problemIn, textProblem } from '../../domain/plain-text.ts';
import { renderProblem } from './render.ts';

/** The address with its percent-encoding undone, or itself when it does not decode (the router refuses it). */
function decodedPath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/**
 * Every request's text before anything reads it (docs/security.md 47.4): a control character in the
 * address, a query value or a form field is a 400 page, as the API answers it, before a session is
 * looked up, a role checked or an audit line started — never a 500 from the database, never a line
 * left `started`.
 */
export const refuseControlCharacters: RequestHandler = (req, res, next) => {
  const where: [string, string | undefined][] = [
    ['The address', textProblem(decodedPath(req.path), 'strict')],
    ['The address', problemIn(req.query, 'strict')],
    ['The form', problemIn(req.body, 'line-breaks')],
  ];
  const found = where.find(([, problem]) => problem !== undefined);
  if (!found) return next();
  renderProblem(res, 400, 'Bad request', `${found[0]} ${found[1]!}, which the dashboard does not accept. Go back and try again.`);
};
