import type { Request } from 'express';
import { ApiError } from '@hc/errors';
import type { FormValues } from '../../domain/link-forms.ts';

/** The named fields of a posted form, as strings (a missing or repeated field is ""). */
export function formValues(req: Request, names: readonly string[]): FormValues {
  const body = (req.body ?? {}) as Record<string, unknown>;
  return Object.fromEntries(names.map((name) => [name, typeof body[name] === 'string' ? body[name] : '']));
}

/**
 * A service's refusal of what the merchant typed (bad input, suspended account, no payout wallet):
 * shown on the form again. not_found and the platform's own faults go on to the error pages.
 */
export function formRefusal(error: unknown): ApiError | null {
  if (!(error instanceof ApiError)) return null;
  return error.code !== 'not_found' && error.httpStatus >= 400 && error.httpStatus < 500 ? error : null;
}

/** The form's problem for the template: the message, the field at fault, and its status. */
export function problemOf(error: ApiError): { message: string; field: string; code: string; status: number } {
  return { message: error.message, field: error.field ?? '', code: error.code, status: error.httpStatus };
}
