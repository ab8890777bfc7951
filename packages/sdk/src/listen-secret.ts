import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** A new signing secret in the endpoints' form (`whsec_` + base64 of 24 random bytes). */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/**
 * Where `hosted-checkout listen` keeps its secrets: `$XDG_CONFIG_HOME/hosted-checkout/listen-secrets.json`,
 * else `~/.config/hosted-checkout/…`. The CLI signs forwarded events itself (docs/adr/0046): no webhook
 * endpoint exists for a listener, so this file is the only place the secret lives.
 */
export function listenSecretsFile(env: NodeJS.ProcessEnv = process.env): string {
  const base = env['XDG_CONFIG_HOME'] || join(homedir(), '.config');
  return join(base, 'hosted-checkout', 'listen-secrets.json');
}

/**
 * One secret per device and account, so the shop's `.env` keeps working across runs. The API gives a
 * key no account id, so the key stands for its account: the entry is named by the API URL and a
 * SHA-256 fingerprint of the key (never the key itself).
 */
export function listenSecretName(apiUrl: string, apiKey: string): string {
  const fingerprint = createHash('sha256').update(apiKey).digest('hex').slice(0, 32);
  return `${new URL(apiUrl).origin} ${fingerprint}`;
}

interface SecretsFile {
  readonly secrets: Record<string, string>;
}

function read(file: string): SecretsFile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { secrets: {} };
    throw error;
  }
  const parsed = JSON.parse(text) as Partial<SecretsFile>;
  return { secrets: { ...(parsed.secrets ?? {}) } };
}

/** Written to a temporary file (mode 0600) and renamed over the old one: never half a file. */
function write(file: string, contents: SecretsFile): void {
  const dir = join(file, '..');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(contents, null, 2)}\n`, { mode: 0o600 });
  chmodSync(temporary, 0o600);
  renameSync(temporary, file);
}

export interface KeptSecret {
  readonly secret: string;
  /** True when this call made it (first run, or `--rotate`): the CLI prints it then. */
  readonly created: boolean;
  readonly file: string;
}

/** The kept secret of `name`, made and stored on first use or when `rotate` is set. */
export function keptListenSecret(name: string, options: { rotate?: boolean; file?: string } = {}): KeptSecret {
  const file = options.file ?? listenSecretsFile();
  const contents = read(file);
  const existing = contents.secrets[name];
  if (existing !== undefined && !options.rotate) return { secret: existing, created: false, file };
  const secret = newSigningSecret();
  write(file, { secrets: { ...contents.secrets, [name]: secret } });
  return { secret, created: true, file };
}
