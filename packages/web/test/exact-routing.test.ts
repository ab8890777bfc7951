// Risk covered: one page reachable under several spellings of its address (letter case, a trailing
// slash), so that a check written against the address — the dashboard's roles, a log — and the router
// disagree about which page it is (docs/security.md 47.2). Real Express over real HTTP.
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import express from 'express';
import { exactRouter, exactRouting } from '../src/index.ts';

let server: Server;
let base: string;

beforeAll(async () => {
  const app = exactRouting(express());
  app.get('/audit.csv', (_req, res) => void res.send('app route'));
  const pages = exactRouter({ mergeParams: true });
  pages.get('/audit', (req, res) => void res.send(`mounted route of ${String((req.params as Record<string, string>)['mode'])}`));
  app.use('/dashboard/:mode', pages);
  app.use((_req, res) => void res.status(404).send('not found'));
  server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.close();
});

const answer = async (path: string) => {
  const response = await fetch(`${base}${path}`);
  return `${response.status} ${await response.text()}`;
};

describe('exact routing', () => {
  it('answers an address only as the route spells it', async () => {
    expect(await answer('/audit.csv')).toBe('200 app route');
    expect(await answer('/dashboard/test/audit')).toBe('200 mounted route of test');
  });

  it.each([
    '/audit.CSV',
    '/AUDIT.csv',
    '/audit.csv/',
    '/dashboard/test/Audit',
    '/dashboard/test/AUDIT',
    '/dashboard/test/audit/',
    '/dashboard/test/%61udit',
  ])('%s is another address: not found', async (path) => {
    expect(await answer(path)).toBe('404 not found');
  });
});
