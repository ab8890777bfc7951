// Removes from a production install every package that nothing loads at run time (deploy/docker/Dockerfile:
// node scripts/prune-production-deps.mjs ROOT PROJECT…). The services list the Prisma CLI (`prisma`) as a
// dependency so that `prisma generate` finds it, and @prisma/client names it (and typescript) as peers;
// but the generated client talks through @prisma/adapter-pg and never loads either (ADR 0003). So: walk
// the package graph from the projects' own production dependencies through pnpm's virtual store
// (ROOT/node_modules/.pnpm), never entering the packages below, and delete every package not reached.
// Plain JavaScript: it runs in the image build before anything else is installed.
import process from 'node:process';
import { existsSync, lstatSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

const NOT_AT_RUN_TIME = new Set(['prisma', 'typescript']);
const [root, ...projects] = process.argv.slice(2);
const store = join(root, 'node_modules', '.pnpm');

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
  const own = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'));
  for (const name of Object.keys(own.dependencies ?? {})) {
    if (!NOT_AT_RUN_TIME.has(name)) queue.push(join(project, 'node_modules', name));
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

let removed = 0;
for (const key of readdirSync(store)) {
  if (key === 'node_modules' || key.startsWith('.') || reached.has(key)) continue;
  rmSync(join(store, key), { recursive: true, force: true });
  removed += 1;
}
// Links left pointing at removed packages (the projects' own and pnpm's hoisted ones).
for (const dir of [join(root, 'node_modules'), join(store, 'node_modules'), ...projects.map((p) => join(p, 'node_modules'))]) {
  for (const name of linked(dir)) {
    const path = join(dir, name);
    if (lstatSync(path).isSymbolicLink() && !existsSync(path)) rmSync(path);
  }
}
process.stdout.write(`prune-production-deps: kept ${reached.size} packages, removed ${removed}\n`);
