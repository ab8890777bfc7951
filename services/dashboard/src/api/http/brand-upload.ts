import type { RequestHandler } from 'express';
import multer from 'multer';

/** The largest logo accepted, as accounts checks it too (docs/adr/0096). */
export const MAX_LOGO_UPLOAD_BYTES = 512 * 1024;

/** The one address that takes a file: Settings → Brand's form. */
const BRAND_FORM = /^\/dashboard\/(?:test|live)\/settings\/brand$/;

const parse = multer({
  storage: multer.memoryStorage(),
  // One file, the form's few short fields: anything more is not this form.
  limits: { fileSize: MAX_LOGO_UPLOAD_BYTES, files: 1, fields: 5, fieldSize: 1024, parts: 6, headerPairs: 20 },
}).single('logo');

/** What the brand route shows for an upload the parser stopped (res.locals.uploadProblem). */
export interface UploadProblem {
  readonly status: 400 | 413;
  readonly message: string;
}

/**
 * Reads the brand form's multipart body (multer, in memory, bounded) before the session and CSRF
 * checks, which need its `_csrf` field; every other address keeps the urlencoded forms only. A file
 * over 512 kB or a form that is not this one is not an error page here: the parser stops, the fields
 * read so far (the token comes first in the form) stay, and the route — after the role guard and the
 * audit line — shows the problem on the form, so a refused upload is in the audit log like any other.
 */
export const brandUpload: RequestHandler = (req, res, next) => {
  if (req.method !== 'POST' || !BRAND_FORM.test(req.path) || !req.is('multipart/form-data')) return next();
  parse(req, res, (error: unknown) => {
    if (!error) return next();
    if (!(error instanceof multer.MulterError)) return next(error);
    req.body ??= {};
    req.file = undefined;
    res.locals['uploadProblem'] = (
      error.code === 'LIMIT_FILE_SIZE'
        ? { status: 413, message: 'The logo must be at most 512 kB.' }
        : { status: 400, message: 'This form could not be read. Reload the page and try again.' }
    ) satisfies UploadProblem;
    next();
  });
};
