import { hash, verify } from '@node-rs/argon2';

/**
 * argon2id (the library's default algorithm; its const enum cannot be imported under our TypeScript
 * settings, and a test checks every hash is `$argon2id$`) through @node-rs/argon2 (prebuilt,
 * maintained). Parameters are OWASP's first
 * recommendation for argon2id (19 MiB, 2 passes, 1 lane); they are stored in each PHC string, so
 * raising them later only affects new hashes.
 */
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function passwordMatches(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/**
 * A hash to verify against when the email has no user (or no password yet), so that answering
 * "wrong email" takes as long as answering "wrong password" and timing tells nothing.
 */
let decoy: Promise<string> | undefined;
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword('decoy password never used by anyone');
  return decoy;
}
