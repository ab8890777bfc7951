import type { CallContext } from '@hc/grpc';
import { ApiError } from '@hc/errors';
import type { MailRecord } from '../domain/mail.ts';
import type { NotificationsDependencies } from './dependencies.ts';

/** The mail log of the caller's account and mode, newest first; a cursor of another account is invalid_cursor. */
export async function listMails(
  deps: NotificationsDependencies,
  ctx: CallContext,
  limit: number,
  startingAfter: string | null,
): Promise<{ mails: MailRecord[]; hasMore: boolean }> {
  const size = limit === 0 ? 20 : limit;
  if (!Number.isInteger(size) || size < 1 || size > 100) throw new ApiError('invalid_limit', undefined, 'limit');
  if (startingAfter !== null && !(await deps.mails.exists(deps.sql.pool, ctx.accountId, ctx.livemode, startingAfter))) {
    throw new ApiError('invalid_cursor', undefined, 'starting_after');
  }
  const rows = await deps.mails.list(deps.sql.pool, ctx.accountId, ctx.livemode, size + 1, startingAfter);
  return { mails: rows.slice(0, size), hasMore: rows.length > size };
}
