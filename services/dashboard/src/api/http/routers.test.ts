import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { FROZEN_WHEN_SUSPENDED } from '../../domain/suspension.ts';
import { ACTION_ROUTES } from './action-routes.ts';
import { signedInRouter } from './routers.ts';

const noop = () => undefined;

describe('roles on the route itself, closed by default (docs/adr/0055)', () => {
  it('a change with no line in ACTION_ROUTES cannot be registered, so the dashboard does not start', () => {
    expect(() => signedInRouter('/dashboard/:mode').post('/settings/something-new', noop)).toThrow(/no line in ACTION_ROUTES/);
    expect(() => signedInRouter('').post('/dashboard/notices/:id/forget', noop)).toThrow(/no line in ACTION_ROUTES/);
  });

  it('every listed change registers, and a read needs no line', () => {
    for (const route of ACTION_ROUTES) {
      const mount = route.path.startsWith('/dashboard/:mode/') ? '/dashboard/:mode' : '';
      const router = signedInRouter(mount);
      const path = route.path.slice(mount.length);
      expect(() => (route.method === 'GET' ? router.get(path, noop) : router.post(path, noop))).not.toThrow();
    }
    expect(() => signedInRouter('/dashboard/:mode').get('/payments', noop)).not.toThrow();
  });

  it('other methods are not offered', () => {
    expect(() => signedInRouter('/dashboard/:mode').put('/links', noop)).toThrow(/GET and POST only/);
    expect(() => signedInRouter('/dashboard/:mode').all('/links', noop)).toThrow(/GET and POST only/);
  });

  it('every router of the dashboard comes from routers.ts: no route file makes its own', () => {
    const dir = import.meta.dirname;
    const offenders = readdirSync(dir)
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && file !== 'routers.ts')
      .filter((file) => {
        const source = readFileSync(join(dir, file), 'utf8');
        const ownRouter = /\b(?:express\.)?Router\(|exactRouter\(/.test(source);
        const unguarded = /\bunguardedRouter\(/.test(source) && file !== 'auth-routes.ts' && file !== 'app.ts';
        return ownRouter || unguarded;
      });
    expect(offenders).toEqual([]);
  });

  it('every action a suspension freezes is a page of a mode, whose account the guard has read (modeFromPath)', () => {
    const rootRoutes = ACTION_ROUTES.filter(
      (route) => FROZEN_WHEN_SUSPENDED.has(route.action) && !route.path.startsWith('/dashboard/:mode/'),
    );
    expect(rootRoutes).toEqual([]);
    for (const action of FROZEN_WHEN_SUSPENDED) expect(ACTION_ROUTES.some((route) => route.action === action)).toBe(true);
  });
});
