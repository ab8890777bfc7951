export {
  ENCRYPTION_KEYS_VARIABLE,
  KEY_ID_PATTERN,
  newEncryptionKeyEntry,
  parseEncryptionKeys,
  SecretsConfigError,
  type EncryptionKey,
  type Keyring,
} from './keyring.ts';
export { missingKeyIdsIn, MISSING_KEY_RUNBOOK, SecretBox, SecretDecryptError, type DecryptFailure, type SecretContext } from './sealed.ts';
export { secretBoxFromEnv } from './from-env.ts';
export { currentKeyPrefix, resealTable, type ResealableTable, type ResealReport } from './reseal.ts';
