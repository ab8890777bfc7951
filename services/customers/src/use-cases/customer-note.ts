import { ApiError } from '@hc/errors';
import { isId } from '@hc/ids';
import type { Scope } from '../domain/customer.ts';
import type { CustomersDependencies } from './dependencies.ts';

/** The longest private note kept; a dashboard note, not a document store. */
export const MAX_NOTE_LENGTH = 5_000;

/** Rule 6: the merchant's private note; only these dashboard calls ever read or write it. */
export async function getCustomerNote(deps: CustomersDependencies, scope: Scope, customerId: string): Promise<string | null> {
  const found = isId('customer', customerId) ? await deps.store.findNote(scope, customerId) : undefined;
  if (!found) throw new ApiError('not_found', 'No such customer.');
  return found.note;
}

/** An empty note clears it. */
export async function setCustomerNote(deps: CustomersDependencies, scope: Scope, customerId: string, note: string): Promise<void> {
  if ([...note].length > MAX_NOTE_LENGTH) {
    throw new ApiError('invalid_request', `note must be at most ${MAX_NOTE_LENGTH} characters.`, 'note');
  }
  const saved = isId('customer', customerId) && (await deps.store.setNote(scope, customerId, note === '' ? null : note));
  if (!saved) throw new ApiError('not_found', 'No such customer.');
}
