// Copies a service's production dependencies out of the workspace's production install
// (deploy/docker/Dockerfile: node scripts/copy-production-deps.mjs ROOT OUT PROJECT…). Walks the package
// graph from the projects' own production dependencies through pnpm's virtual store
// (ROOT/node_modules/.pnpm) and copies every package it reaches to OUT/node_modules/.pnpm, links kept as
// they are, so that one install of the whole workspace serves every image. The walk never enters the
// packages below: the services list the Prisma CLI (`prisma`) as a dependency so that `prisma generate`
// finds it, and @prisma/client names it (and typescript) as peers, but the generated client talks
// through @prisma/adapter-pg and never loads either (ADR 0003, docs/container-images.md).
// Plain JavaScript: it runs in the image build, where nothing else is installed for it.
import process from 'node:process';
import { cpSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

const NOT_AT_RUN_TIME = new Set(['prisma', 'typescript']);
const [root, out, ...projects] = process.argv.slice(2);
const store = join(root, 'node_modules', '.pnpm');
const target = join(out, 'node_modules', '.pnpm');

/** The names of the packages linked in a node_modules folder (scoped ones as @scope/name). */
function linked(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((entry) => {
    if (entry.startsWith('.')) return [];
    if (entry.startsWith('@')) return readdirSync(join(dir, entry)).map((name) => `${entry}/${name}`);
    return [entry];
  });
}

/** The virtual-store entry (".pnpm/<key>") a resolved package folder lives in; none for workspace projects. */
function storeKey(dir) {
  const rel = relative(store, dir);
  return rel.startsWith('..') ? undefined : rel.split(sep)[0];
}

const reached = new Set();
const queue = [];
for (const project of projects) {
  const own = JSON.parse(readFileSync(join(root, project, 'package.json'), 'utf8'));
  for (const name of Object.keys(own.dependencies ?? {})) {
    if (!NOT_AT_RUN_TIME.has(name)) queue.push(join(root, project, 'node_modules', name));
  }
}
while (queue.length > 0) {
  const link = queue.pop();
  if (!existsSync(link)) continue;
  const key = storeKey(realpathSync(link));
  if (!key || reached.has(key)) continue;
  reached.add(key);
  const modules = join(store, key, 'node_modules');
  for (const name of linked(modules)) if (!NOT_AT_RUN_TIME.has(name)) queue.push(join(modules, name));
}

mkdirSync(target, { recursive: true });
for (const key of reached) cpSync(join(store, key), join(target, key), { recursive: true, verbatimSymlinks: true });
// The projects themselves, with their node_modules links (relative, into the copied virtual store).
for (const project of projects) cpSync(join(root, project), join(out, project), { recursive: true, verbatimSymlinks: true });
// pnpm's hoisted links (.pnpm/node_modules), for packages that load what they do not declare.
if (existsSync(join(store, 'node_modules'))) {
  cpSync(join(store, 'node_modules'), join(target, 'node_modules'), { recursive: true, verbatimSymlinks: true });
}
// Links left pointing at packages not copied (the Prisma CLI, other services' dependencies).
const dirs = [join(target, 'node_modules'), ...projects.map((p) => join(out, p, 'node_modules'))];
for (const key of reached) dirs.push(join(target, key, 'node_modules'));
let dropped = 0;
for (const dir of dirs) {
  for (const name of linked(dir)) {
    const path = join(dir, name);
    if (lstatSync(path).isSymbolicLink() && !existsSync(path)) {
      rmSync(path);
      dropped += 1;
    }
  }
}
process.stdout.write(`copy-production-deps: ${reached.size} packages and ${projects.length} projects copied, ${dropped} links dropped\n`);
