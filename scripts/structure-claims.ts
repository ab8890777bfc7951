// The structural claims of README.md and docs/ that a script can check (issue 48, item 6): each
// function returns the places that break one claim, [] when it holds. Run in CI by
// scripts/tests/structure-claims.test.ts (so `./scripts/test` runs it); alone:
// `node scripts/structure-claims.ts` prints what is wrong and exits 1.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/** The six folder roles of a service's src/ (README "Layout", docs/adr/0050). A service has those it needs. */
export const ROLE_FOLDERS = ['api', 'use-cases', 'domain', 'store', 'adapters', 'jobs'];
/** What api/ holds: everything inbound, by kind. */
export const API_FOLDERS = ['grpc', 'http', 'consumers', 'listeners'];
/**
 * The files a service's src/ may hold directly: its entry point, its public index, its config (and the
 * config's unit test), its migrations and the migration command, and its composition root
 * `<service>-service.ts`.
 */
export const TOP_LEVEL_FILES = ['main.ts', 'index.ts', 'config.ts', 'config.test.ts', 'migrate.ts', 'migrations.ts'];

/** Today's exceptions, each with its reason. A new one is a decision, written here. */
export const TOP_LEVEL_EXCEPTIONS: Record<string, string> = {
  'services/dashboard/src/dashboard-server.ts': 'the composition root, named for the HTTP server it is',
  'services/dashboard/src/reseal-secrets.ts': 'a command run in a dashboard pod (pnpm reseal-secrets)',
  'services/webhooks/src/reseal-secrets.ts': 'a command run in a webhooks pod (pnpm reseal-secrets)',
  'services/pages/src/pages-server.ts': 'the composition root, named for the HTTP server it is',
  'services/pages/src/paths.ts': 'every route of the hosted pages named once, for routes, templates and tests',
  'services/gateway/src/gateway.ts': 'the composition root',
  'services/gateway/src/testing.ts': 'internals the e2e tests and the benchmarks may use (@hc/gateway/testing)',
  'services/gateway/src/write-openapi.ts': 'the `pnpm openapi` command that writes docs/openapi.json',
};

/**
 * Services that do not follow the roles at all, with the reason. None today: the emulator follows them
 * since issue 48 (domain/ the in-memory chain and ledger, use-cases/ pay, adapters/ the notices it
 * sends, api/http/ its routes).
 */
export const SERVICES_WITHOUT_ROLES: Record<string, string> = {};

function serviceNames(root: string): string[] {
  const services = join(root, 'services');
  return readdirSync(services, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(services, entry.name, 'src')))
    .map((entry) => entry.name)
    .sort();
}

/** Every service's src/ holds only the role folders and the allowed top-level files (or a listed exception). */
export function folderRoleViolations(root: string): string[] {
  const violations: string[] = [];
  for (const service of serviceNames(root)) {
    if (service in SERVICES_WITHOUT_ROLES) continue;
    const src = join(root, 'services', service, 'src');
    for (const entry of readdirSync(src, { withFileTypes: true })) {
      const path = `services/${service}/src/${entry.name}`;
      if (entry.isDirectory()) {
        if (!ROLE_FOLDERS.includes(entry.name)) violations.push(`${path}/: not one of the six roles (${ROLE_FOLDERS.join(', ')})`);
      } else if (!TOP_LEVEL_FILES.includes(entry.name) && entry.name !== `${service}-service.ts` && !(path in TOP_LEVEL_EXCEPTIONS)) {
        violations.push(`${path}: a file directly in src/ that is neither an entry file nor a listed exception`);
      }
    }
    const api = join(src, 'api');
    if (!existsSync(api)) continue;
    for (const entry of readdirSync(api, { withFileTypes: true })) {
      if (!entry.isDirectory() || !API_FOLDERS.includes(entry.name))
        violations.push(`services/${service}/src/api/${entry.name}: api/ holds only ${API_FOLDERS.join('/, ')}/`);
    }
  }
  for (const listed of Object.keys(TOP_LEVEL_EXCEPTIONS))
    if (!existsSync(join(root, listed))) violations.push(`${listed}: listed as an exception but gone (remove it from the list)`);
  return violations;
}

function typescriptFiles(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts') && !name.split(sep).includes('generated') && !name.split(sep).includes('node_modules'))
    .map((name) => join(folder, name))
    .filter((path) => statSync(path).isFile());
}

function parse(path: string): ts.SourceFile {
  return ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
}

/** The role folder a file of a service's src/ lives in ('' for the top-level files). */
function roleOf(src: string, path: string): string {
  const first = relative(src, path).split(sep)[0]!;
  return ROLE_FOLDERS.includes(first) ? first : '';
}

/**
 * The layer rules as README states them: domain/ imports no other layer; api/ never imports store/
 * (it calls use cases, and may call adapters/ directly, e.g. the dashboard's gRPC clients).
 */
export function layerViolations(root: string): string[] {
  const violations: string[] = [];
  const refused: Record<string, string[]> = { domain: ['api', 'use-cases', 'store', 'adapters', 'jobs', ''], api: ['store'] };
  for (const service of serviceNames(root)) {
    const src = join(root, 'services', service, 'src');
    for (const path of typescriptFiles(src)) {
      const from = roleOf(src, path);
      if (!(from in refused)) continue;
      for (const statement of parse(path).statements) {
        if (!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) continue;
        const specifier = statement.moduleSpecifier;
        if (!specifier || !ts.isStringLiteral(specifier) || !specifier.text.startsWith('.')) continue;
        const target = resolve(dirname(path), specifier.text);
        if (!target.startsWith(src + sep)) continue;
        const to = roleOf(src, target);
        if (refused[from]!.includes(to))
          violations.push(`${relative(root, path)}: ${from}/ imports ${to ? `${to}/` : 'the composition root'} (${specifier.text})`);
      }
    }
  }
  return violations;
}

/** The one place NATS subjects are written (docs/events.md). */
export const SUBJECTS_FILE = 'packages/events/src/contracts/subjects.ts';
/** A string that is a subject of one of the contexts' streams: `checkout.payment.paid…`, `settlement.verdict.reached`, `checkout.>`. */
const SUBJECT =
  /^(checkout|customers|settlement|webhooks|notifications|accounts|deadletter)\.(payment|session|customer|verdict|endpoint|account|api_key|\*|>)(\.|$)/;

/** No NATS subject written as a literal in source code outside SUBJECTS_FILE (comments and tests aside). */
export function subjectLiteralViolations(root: string): string[] {
  const violations: string[] = [];
  const folders = ['services', 'packages', 'tools'].flatMap((area) =>
    existsSync(join(root, area)) ? readdirSync(join(root, area)).map((name) => join(root, area, name, 'src')) : [],
  );
  for (const path of folders.flatMap(typescriptFiles)) {
    const file = relative(root, path).split(sep).join('/');
    if (file === SUBJECTS_FILE || file.endsWith('.test.ts')) continue;
    const source = parse(path);
    const visit = (node: ts.Node): void => {
      const literal = ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateLiteralToken(node);
      if (literal && SUBJECT.test((node as ts.LiteralLikeNode).text)) {
        const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
        violations.push(`${file}:${line}: subject literal ${JSON.stringify((node as ts.LiteralLikeNode).text)} (use ${SUBJECTS_FILE})`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return violations;
}

/** Checkout's src/, where the aggregate is the payment (docs/adr/0104). */
export const CHECKOUT_SRC = 'services/checkout/src';
/** The proto's name for the API resource; inside checkout it names only proto messages (generated code). */
const OLD_AGGREGATE_NAME = /^CheckoutSession/;

/**
 * Checkout's src/ declares no type, interface, class or enum named `CheckoutSession…`: the aggregate is
 * `Payment`, and `checkout_session` stays only the API resource and the proto's names (docs/adr/0104).
 * The gRPC handlers implement the proto's RPCs as object methods, which this does not look at.
 */
export function aggregateNameViolations(root: string): string[] {
  const violations: string[] = [];
  for (const path of typescriptFiles(join(root, CHECKOUT_SRC))) {
    const source = parse(path);
    const visit = (node: ts.Node): void => {
      const named =
        ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node) || ts.isClassDeclaration(node) || ts.isEnumDeclaration(node);
      if (named && node.name && OLD_AGGREGATE_NAME.test(node.name.text)) {
        const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
        violations.push(
          `${relative(root, path).split(sep).join('/')}:${line}: ${node.name.text} (the aggregate is Payment, docs/adr/0104)`,
        );
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return violations;
}

/** ADR numbers unique; each record listed in docs/adr/README.md; each listed record a file. */
export function adrViolations(root: string): string[] {
  const folder = join(root, 'docs', 'adr');
  const files = readdirSync(folder).filter((name) => /^\d{4}-.+\.md$/.test(name));
  const violations: string[] = [];
  const byNumber = new Map<string, string[]>();
  for (const file of files) byNumber.set(file.slice(0, 4), [...(byNumber.get(file.slice(0, 4)) ?? []), file]);
  for (const [number, named] of byNumber) if (named.length > 1) violations.push(`ADR ${number} is used twice: ${named.join(', ')}`);
  const index = readFileSync(join(folder, 'README.md'), 'utf8');
  const rows = [...index.matchAll(/^\| \[(\d{4})\]\((\d{4}-[^)]+\.md)\)/gm)];
  const listed = new Set(rows.map((row) => row[2]!));
  for (const [, number, file] of rows) {
    if (file!.slice(0, 4) !== number) violations.push(`docs/adr/README.md: [${number}] links ${file}`);
    if (!files.includes(file!)) violations.push(`docs/adr/README.md: ${file} is listed but no such record`);
  }
  for (const file of files) if (!listed.has(file)) violations.push(`docs/adr/${file}: not listed in docs/adr/README.md`);
  return violations;
}

export function structureViolations(root: string): string[] {
  return [
    ...folderRoleViolations(root),
    ...layerViolations(root),
    ...subjectLiteralViolations(root),
    ...aggregateNameViolations(root),
    ...adrViolations(root),
  ];
}

if (import.meta.main) {
  const violations = structureViolations(join(import.meta.dirname, '..'));
  for (const violation of violations) console.error(violation);
  process.exit(violations.length === 0 ? 0 : 1);
}
