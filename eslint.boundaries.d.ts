import type { Linter } from 'eslint';

/** The layer rules of docs/adr/0023, for services/ under `rootPath`. */
export function layerRules(rootPath: string): Linter.Config[];
