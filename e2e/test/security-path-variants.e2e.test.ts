// Risk covered: a role check and the router disagreeing about which page an address is (docs/security.md
// 47.2). The role table was read as the address is spelt while Express routed ignoring letter case and
// a trailing slash, so a viewer got 403 on /dashboard/test/audit but the log on /Audit, and the whole
// log as CSV on /audit.CSV. Every route the dashboard's route files declare (declaredRoutes, the list
// the isolation walk checks against) is asked under other spellings — letter case, a trailing slash, a
// letter percent-encoded (%61), doubly encoded (%2561), a slash encoded (%2F), the mode spelt otherwise
// — by a viewer and by the owner, as a script would (session cookie, CSRF token). Each such address is
// another address: the 404 page, a 403 for a change, or a 400; never a page, a redirect, a change made
// or a 5xx. Real platform and dashboard over HTTP.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServiceClient, type PublicCallContext } from '@hc/grpc';
import { DashboardUsersService } from '@hc/proto/dashboard/v1';
import {
  declaredRoutes,
  getPage,
  PASSWORD,
  postForm,
  signInOverHttp,
  startSecurityHarness,
  type HttpSession,
  type SecurityHarness,
} from './security-harness.ts';

let h: SecurityHarness;
const sessions = {} as Record<'owner' | 'viewer', HttpSession>;

beforeAll(async () => {
  h = await startSecurityHarness('variants', { browser: false });
  const owner = await h.merchant();
  const users = createServiceClient<typeof DashboardUsersService, PublicCallContext>(DashboardUsersService, h.dashboard.grpcAddress, {
    timeoutMs: 30_000,
  });
  const viewer = { email: `viewer-variants-${Date.now()}@shop.example`, password: PASSWORD };
  await users.createUser({ accountId: owner.accountId, ...viewer, role: 'viewer' }, { requestId: 'req_test' });
  users.close();
  [sessions.owner, sessions.viewer] = await Promise.all([signInOverHttp(h.url, owner), signInOverHttp(h.url, viewer)]);
}, 120_000);
afterAll(async () => {
  await h?.stop();
});

/** A route as the dashboard declares it: mode pages are relative to /dashboard/:mode. */
interface Route {
  readonly method: 'GET' | 'POST';
  readonly path: string;
}

const ROUTES: readonly Route[] = [...new Set(declaredRoutes())].map((line) => {
  const [method, path] = line.split(' ') as ['GET' | 'POST', string];
  return { method, path: path.startsWith('/dashboard') ? path : `/dashboard/:mode${path === '/' ? '' : path}` };
});

/** An object id no account has: the walk is about the address's fixed words, not its object. */
const ID = 'zz_unknown';

const encoded = (letter: string): string => `%${letter.charCodeAt(0).toString(16).padStart(2, '0')}`;

/** Other spellings of the route's address, each named; the address itself is `canonical`. */
function variants(route: Route): { name: string; path: string }[] {
  const segments = route.path.split('/').slice(1);
  const canonical = (list: string[]) => `/${list.map((s) => (s === ':mode' ? 'test' : s === ':id' ? ID : s)).join('/')}`;
  const out: { name: string; path: string }[] = [];
  segments.forEach((segment, index) => {
    const with_ = (replacement: string) => canonical(segments.map((s, i) => (i === index ? replacement : s)));
    if (segment === ':id') return;
    const word = segment === ':mode' ? 'test' : segment;
    const letter = /[a-z]/.exec(word);
    if (!letter) return;
    const at = letter.index;
    const swap = (text: string) => `${word.slice(0, at)}${text}${word.slice(at + 1)}`;
    out.push({ name: `"${word}" with a capital`, path: with_(swap(letter[0].toUpperCase())) });
    out.push({ name: `"${word}" in capitals`, path: with_(word.toUpperCase()) });
    out.push({ name: `"${word}" with ${encoded(letter[0])}`, path: with_(swap(encoded(letter[0]))) });
    out.push({ name: `"${word}" with %25${encoded(letter[0]).slice(1)}`, path: with_(swap(`%25${encoded(letter[0]).slice(1)}`)) });
    if (word.endsWith('.csv')) out.push({ name: `"${word}" as .CSV`, path: with_(word.replace(/\.csv$/, '.CSV')) });
    if (index > 0) {
      // The slash before this segment sent encoded: one segment to the router, two once decoded.
      const joined = [...segments.slice(0, index - 1), `${segments[index - 1]}%2F${segment}`, ...segments.slice(index + 1)];
      out.push({ name: `%2F before "${word}"`, path: canonical(joined).replace(':mode', 'test').replace(':id', ID) });
    }
  });
  out.push({ name: 'a trailing slash', path: `${canonical(segments)}/` });
  return out;
}

/** What a script gets for an address: the status, and where a redirect goes. */
async function ask(route: Route, session: HttpSession, path: string): Promise<{ status: number; location: string | null }> {
  const response =
    route.method === 'GET'
      ? await getPage(h.url, path, session.cookie)
      : await postForm(h.url, path, { _csrf: session.csrf }, session.cookie);
  await response.arrayBuffer();
  return { status: response.status, location: response.headers.get('location') };
}

/** Another address: the 404 page, a 403 for a change, or a 400 for an address that does not decode. */
const ANOTHER_ADDRESS = [400, 403, 404];

/** The mode's root, /dashboard/test: with a trailing slash it is the mount's own address, which Express strips. */
const MOUNT_ROOT_SLASH = '/dashboard/test/';

describe('every dashboard route under other spellings of its address', () => {
  it('the walk has every route the route files declare', () => {
    expect(ROUTES.length).toBeGreaterThan(40);
    expect(ROUTES.every((route) => variants(route).length >= 5)).toBe(true);
  });

  it.each(ROUTES.map((route) => ({ ...route, title: `${route.method} ${route.path}` })))(
    '$title: every other spelling is another address, for a viewer and for the owner',
    async (route) => {
      const answers: string[] = [];
      for (const role of ['viewer', 'owner'] as const) {
        for (const variant of variants(route)) {
          if (variant.path === MOUNT_ROOT_SLASH) continue;
          const { status, location } = await ask(route, sessions[role], variant.path);
          if (!ANOTHER_ADDRESS.includes(status))
            answers.push(`${role} ${route.method} ${variant.path} (${variant.name}): ${status} ${location ?? ''}`);
        }
      }
      expect(answers).toEqual([]);
    },
  );

  it('the mode root with a trailing slash only leads to the Overview, itself checked', async () => {
    const { status, location } = await ask({ method: 'GET', path: '/dashboard/:mode' }, sessions.viewer, MOUNT_ROOT_SLASH);
    expect({ status, location }).toEqual({ status: 303, location: '/dashboard/test/overview' });
  });

  it('the audit log and its CSV: 403 for a viewer under any spelling, the owner reads them at their own address', async () => {
    for (const path of ['/dashboard/test/audit', '/dashboard/test/audit.csv']) {
      expect((await getPage(h.url, path, sessions.viewer.cookie)).status).toBe(403);
      expect((await getPage(h.url, path, sessions.owner.cookie)).status).toBe(200);
    }
  });
});
