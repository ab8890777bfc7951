import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { catalogueProblems, LOCALES, readCatalogue } from '@hc/i18n';
import { LOCALES_DIR } from './templates.ts';

const TEMPLATES = join(import.meta.dirname, '..', '..', 'templates');

describe('the buyer mails’ catalogues (locales/*.json)', () => {
  it('have every key in every locale, and every message parses with the arguments English takes', () => {
    expect(catalogueProblems(LOCALES_DIR)).toEqual([]);
    expect(readdirSync(LOCALES_DIR).sort()).toEqual(LOCALES.map((l) => `${l}.json`).sort());
  });

  it('have every key the templates name', () => {
    const english = readCatalogue(LOCALES_DIR, 'en');
    const named = readdirSync(TEMPLATES).flatMap((file) =>
      [...readFileSync(join(TEMPLATES, file), 'utf8').matchAll(/\bt\('([\w.]+)'[,)]/g)].map((m) => m[1]!),
    );
    expect(named.length).toBeGreaterThan(10);
    expect(named.filter((key) => !(key in english))).toEqual([]);
  });
});
