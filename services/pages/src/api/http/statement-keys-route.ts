import { Router } from 'express';
import { parsePublicKeys, statementKeysDocument } from '@hc/exports';
import { paths } from '../../paths.ts';
import { renderNotFound } from './render.ts';

/**
 * GET /.well-known/hc-statement-keys.json: the public keys that settlement statements are signed
 * with, as a JWK Set (RFC 7517; Ed25519 keys per RFC 8037), every key id a statement may name —
 * retired keys stay listed so old statements still verify (docs/verifying-a-statement.md). A public
 * document like /docs: no key, no service behind it, readable from any origin (a verifier in a
 * browser), cached for five minutes so a newly added key is seen soon.
 */
export function statementKeysRoutes(publicKeys: string | undefined): Router {
  const router = Router();
  const document = publicKeys?.trim() ? JSON.stringify(statementKeysDocument(parsePublicKeys(publicKeys))) : undefined;
  router.get(paths.statementKeys, (_req, res) => {
    if (!document) return renderNotFound(res);
    res
      .status(200)
      .set({
        'content-type': 'application/json; charset=utf-8',
        'cache-control': 'public, max-age=300',
        'access-control-allow-origin': '*',
      })
      .send(document);
  });
  return router;
}
