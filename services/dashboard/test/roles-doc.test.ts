// Risk covered: the roles table in the docs saying something other than what the server enforces.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from '@jest/globals';
import { ACTIONS, PERMITTED, ROLES } from '../src/domain/roles.ts';

it('docs/dashboard-roles.md prints exactly the table the server enforces', () => {
  const doc = readFileSync(join(import.meta.dirname, '..', '..', '..', 'docs', 'dashboard-roles.md'), 'utf8');
  const rows = new Map(
    [...doc.matchAll(/^\| `([a-z_.]+)` — [^|]+\|(.+)\|$/gm)].map(([, action, cells]) => [action, cells!.split('|').map((c) => c.trim())]),
  );
  expect([...rows.keys()].sort()).toEqual([...ACTIONS].sort());
  for (const action of ACTIONS) expect(rows.get(action)).toEqual(ROLES.map((role) => (PERMITTED[action].includes(role) ? 'yes' : 'no')));
});
