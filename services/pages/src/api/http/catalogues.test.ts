import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { catalogueProblems, LOCALES, readCatalogue } from '@hc/i18n';
import { LOCALES_DIR } from './language.ts';

const VIEWS = join(import.meta.dirname, '..', '..', '..', 'views');

describe('the pages catalogues (locales/*.json)', () => {
  it('have every key in every locale, and every message parses with the arguments English takes', () => {
    expect(catalogueProblems(LOCALES_DIR)).toEqual([]);
  });

  it('have a file for each supported locale and no other', () => {
    expect(readdirSync(LOCALES_DIR).sort()).toEqual(LOCALES.map((l) => `${l}.json`).sort());
  });

  it('have every key the templates name literally', () => {
    const english = readCatalogue(LOCALES_DIR, 'en');
    const named = readdirSync(VIEWS).flatMap((file) =>
      [...readFileSync(join(VIEWS, file), 'utf8').matchAll(/\bth?\('([\w.]+)'[,)]/g)].map((m) => m[1]!),
    );
    expect(named.length).toBeGreaterThan(50);
    expect(named.filter((key) => !(key in english))).toEqual([]);
  });

  it('tell card buyers nothing about coins, chains or wallets', () => {
    for (const locale of LOCALES) {
      const text = Object.values(readCatalogue(LOCALES_DIR, locale)).join('\n');
      expect(text).not.toMatch(/coin|crypto|blockchain|USDC|USDT|Polygon|Münze|moneda|moeda|monet[ay]|moneta|munt|コイン|عملة/i);
    }
  });
});
