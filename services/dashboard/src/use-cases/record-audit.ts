import { clip, type AuditCompletion, type AuditFilter, type AuditEntry, type NewAuditEntry } from '../domain/audit.ts';
import type { DashboardDependencies } from './dependencies.ts';

/** Adds a line to the account's audit log (values clipped; never a secret: callers pass none). */
export function recordAudit(deps: DashboardDependencies, entry: Omit<NewAuditEntry, 'at'> & { at?: Date }): Promise<string> {
  return deps.audit.append({
    ...entry,
    at: entry.at ?? deps.now(),
    target: clip(entry.target),
    before: clip(entry.before),
    after: clip(entry.after),
  });
}

/**
 * Completes a line written as `started` before its action (docs/adr/0060) with the outcome and what
 * only the action's end knows. `accountId` is the line's account, or the one a CLI command found.
 */
export function completeAudit(
  deps: DashboardDependencies,
  id: string,
  accountId: string,
  completion: Omit<AuditCompletion, 'at'>,
): Promise<boolean> {
  const clipped = (value: string | null | undefined) => (value === undefined ? undefined : clip(value));
  return deps.audit.complete(id, accountId, {
    ...completion,
    at: deps.now(),
    target: clipped(completion.target),
    before: clipped(completion.before),
    after: clipped(completion.after),
  });
}

export function listAudit(deps: DashboardDependencies, accountId: string, filter: AuditFilter): Promise<AuditEntry[]> {
  return deps.audit.list(accountId, filter);
}

/** Every entry the filter matches, newest first, read a page at a time (the CSV export). */
export function eachAuditEntry(deps: DashboardDependencies, accountId: string, filter: AuditFilter): AsyncGenerator<AuditEntry> {
  return deps.audit.each(accountId, filter);
}
