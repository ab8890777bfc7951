import { ENCRYPTION_KEYS_VARIABLE, parseEncryptionKeys, SecretsConfigError } from './keyring.ts';
import { SecretBox } from './sealed.ts';

/**
 * The SecretBox of a service, from SECRETS_ENCRYPTION_KEYS. A service that keeps secrets at rest
 * refuses to start without it: there is no built-in key, so no deployment can run on a key everyone
 * knows. ./scripts/start makes and keeps a local one (docs/adr/0083); tests pass a test key.
 */
export function secretBoxFromEnv(value: string | undefined): SecretBox {
  if (value === undefined || value.trim() === '') {
    throw new SecretsConfigError(
      `${ENCRYPTION_KEYS_VARIABLE} is not set: webhook signing secrets and two-factor seeds are stored encrypted and need a key ` +
        `(keyId:base64key, e.g. "k1:$(openssl rand -base64 32)"). In a cluster it comes from a Kubernetes Secret (deploy/README.md); ` +
        `./scripts/start makes one and keeps it in the local state database (docs/operations.md, "Encryption keys").`,
    );
  }
  return new SecretBox(parseEncryptionKeys(value));
}
