import type { Router } from 'express';
import { writeCsv } from '@hc/exports';
import { auditFilterOf, AUDIT_PAGE, type AuditEntry } from '../../domain/audit.ts';
import { formatTime } from '../../domain/format.ts';
import type { DashboardDependencies } from '../../use-cases/dependencies.ts';
import { eachAuditEntry, listAudit } from '../../use-cases/record-audit.ts';
import { modeOf } from './mode.ts';
import { modePath } from './paths.ts';
import { renderPage } from './render.ts';
import { signedIn } from './session.ts';
import { signedInRouter } from './routers.ts';

const entryView = (entry: AuditEntry) => ({
  ...entry,
  when: formatTime(entry.at),
  change: entry.before !== null || entry.after !== null ? `${entry.before ?? '—'} → ${entry.after ?? '—'}` : '',
});

/** The query string of a filter, without the cursor (for "Older entries" and the CSV link). */
function filterQuery(query: Record<string, unknown>): URLSearchParams {
  const kept = new URLSearchParams();
  for (const name of ['action', 'actor', 'mode', 'outcome']) {
    const value = query[name];
    if (typeof value === 'string' && value !== '') kept.set(name, value);
  }
  return kept;
}

/**
 * /dashboard/{mode}/audit: the account's audit log (docs/adr/0056), newest first, 50 a page, filtered
 * by action, actor, mode and outcome; the same filter as CSV (every matching line, streamed). Owner
 * and admin only (authorize.ts). The log covers both modes; its own mode filter narrows it.
 */
export function auditRoutes(deps: DashboardDependencies): Router {
  const router = signedInRouter('/dashboard/:mode');

  router.get('/audit', async (req, res) => {
    const mode = modeOf(res);
    const filter = auditFilterOf(req.query);
    const entries = await listAudit(deps, signedIn(res).session.user.accountId, filter);
    const query = filterQuery(req.query);
    const older = entries.length === AUDIT_PAGE ? `?${new URLSearchParams([...query, ['before', entries.at(-1)!.id]])}` : null;
    renderPage(res, 'audit.njk', {
      title: 'Audit log',
      area: 'audit',
      entries: entries.map(entryView),
      filter: { action: filter.action ?? '', actor: filter.actor ?? '', mode: filter.mode ?? '', outcome: filter.outcome ?? '' },
      filtered: query.size > 0,
      older: older ? `${modePath(mode, 'audit')}${older}` : null,
      csv: `${modePath(mode, 'audit.csv')}${query.size ? `?${query}` : ''}`,
    });
  });

  router.get('/audit.csv', async (req, res) => {
    const filter = auditFilterOf(req.query);
    const accountId = signedIn(res).session.user.accountId;
    res.type('text/csv; charset=utf-8').attachment(`audit-${accountId}.csv`);
    const rows = (async function* () {
      for await (const entry of eachAuditEntry(deps, accountId, filter))
        yield {
          id: entry.id,
          at: entry.at.toISOString(),
          actor_kind: entry.actorKind,
          actor: entry.actor,
          client_address: entry.clientAddress,
          action: entry.action,
          mode: entry.mode ?? '',
          target: entry.target ?? '',
          outcome: entry.outcome,
          status: entry.status === null ? '' : String(entry.status),
          before: entry.before ?? '',
          after: entry.after ?? '',
        };
    })();
    const columns = [
      'id',
      'at',
      'actor_kind',
      'actor',
      'client_address',
      'action',
      'mode',
      'target',
      'outcome',
      'status',
      'before',
      'after',
    ];
    await writeCsv(rows, columns, res);
  });

  return router;
}
