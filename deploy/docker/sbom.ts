/**
 * The SBOM of a built image, CycloneDX 1.6 JSON: what the image holds, read from the image itself
 * (scripts/images.sh runs this after each build; docs/container-images.md, "SBOM").
 *
 *   node deploy/docker/sbom.ts CLIENT IMAGE SERVICE OUT.cdx.json
 *
 * A small inventory script runs inside the image (node, no network): every package under
 * /app/node_modules/.pnpm that the image's workspace projects reach through their node_modules links, and
 * those projects (services/<name>, packages/*, …), each with its package.json and the packages it links.
 * This file turns that into a BOM with the CycloneDX library (@cyclonedx/cyclonedx-library): a
 * component per package (purl, licences, links from its package.json), the dependency graph, the image
 * as the BOM's subject and the Node runtime it runs on. Reading the image, not the lockfile, lists what
 * was really shipped: never a devDependency, nor the Prisma CLI the build leaves out.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import process from 'node:process';
import { Contrib, Enums, Models, Serialize, Spec } from '@cyclonedx/cyclonedx-library';

/** One package or workspace project found in the image. */
export interface InventoryEntry {
  /** Its folder, relative to /app (unique: the BOM reference). */
  path: string;
  /** Whether it is a workspace project (services/*, packages/*, tools/*), not a package from the registry. */
  project: boolean;
  packageJson: Record<string, unknown> & { name?: string; version?: string };
  /** The paths of the packages it links to (its dependencies as installed). */
  dependencies: string[];
}
export interface Inventory {
  node: string;
  entries: InventoryEntry[];
}

/** Runs in the image with `node --input-type=module -e`: prints the Inventory as JSON. Node built-ins only. */
export const INVENTORY_SCRIPT = `
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
const root = '/app';
const store = join(root, 'node_modules', '.pnpm');
const linked = (dir) => !existsSync(dir) ? [] : readdirSync(dir).flatMap((e) =>
  e.startsWith('.') ? [] : e.startsWith('@') ? readdirSync(join(dir, e)).map((n) => e + '/' + n) : [e]);
// A store package's dependencies are its siblings in .pnpm/<key>/node_modules; a project's, its node_modules.
const modulesOf = (dir) => dir.startsWith(store + sep)
  ? join(store, relative(store, dir).split(sep)[0], 'node_modules') : join(dir, 'node_modules');
const entries = new Map();
const queue = [];
for (const group of ['services', 'packages', 'tools']) {
  for (const name of existsSync(join(root, group)) ? readdirSync(join(root, group)) : []) {
    const dir = join(root, group, name);
    if (existsSync(join(dir, 'package.json'))) queue.push(dir);
  }
}
while (queue.length > 0) {
  const dir = queue.pop();
  if (entries.has(dir)) continue;
  const entry = { path: relative(root, dir), project: !dir.startsWith(store + sep),
    packageJson: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')), dependencies: [] };
  entries.set(dir, entry);
  const modules = modulesOf(dir);
  for (const name of linked(modules)) {
    const link = join(modules, name);
    if (!existsSync(link)) continue;
    const real = realpathSync(link);
    if (real === dir || !existsSync(join(real, 'package.json'))) continue;
    entry.dependencies.push(relative(root, real));
    queue.push(real);
  }
}
process.stdout.write(JSON.stringify({ node: process.version, entries: [...entries.values()] }));
`;

export function readInventory(client: string, image: string): Inventory {
  const out = execFileSync(
    client,
    ['run', '--rm', '--network', 'none', '--no-healthcheck', '--entrypoint', 'node', image, '--input-type=module', '-e', INVENTORY_SCRIPT],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return JSON.parse(out) as Inventory;
}

/** pkg:npm/<scope as %40scope>/<name>@<version> (the package-url spec's npm type). */
export function npmPurl(name: string, version: string): string {
  const [first, second] = name.split('/');
  const path = second === undefined ? encodeURIComponent(first!) : `${encodeURIComponent(first!)}/${encodeURIComponent(second)}`;
  return `pkg:npm/${path}@${encodeURIComponent(version)}`;
}

// A licence string is an SPDX expression when it combines ids; a single id becomes an SPDX licence when
// the spec lists it, a name otherwise (the library's factory decides between those two).
const licenseFactory = new Contrib.License.Factories.LicenseFactory((value: string) => {
  if (!/\s(OR|AND|WITH)\s/.test(value)) throw new Error('not an expression');
});
const componentBuilder = new Contrib.FromNodePackageJson.Builders.ComponentBuilder(
  new Contrib.FromNodePackageJson.Factories.ExternalReferenceFactory(),
  licenseFactory,
);

function componentOf(entry: InventoryEntry): Models.Component {
  const made = componentBuilder.makeComponent(entry.packageJson, Enums.ComponentType.Library);
  const component = made ?? new Models.Component(Enums.ComponentType.Library, entry.packageJson.name ?? entry.path);
  component.bomRef.value = entry.path;
  if (!entry.project && entry.packageJson.name && entry.packageJson.version) {
    component.purl = npmPurl(entry.packageJson.name, entry.packageJson.version);
  }
  component.properties.add(new Models.Property('cdx:npm:package:path', entry.path));
  if (entry.project) component.properties.add(new Models.Property('cdx:npm:package:private', 'true'));
  return component;
}

/** The BOM of `image` (the service `service`, at `version`) from its inventory. */
export function makeBom(inventory: Inventory, image: string, service: string, version: string): Models.Bom {
  const bom = new Models.Bom({ serialNumber: Contrib.Bom.Utils.randomSerialNumber() });
  bom.metadata.timestamp = new Date();
  const subject = new Models.Component(Enums.ComponentType.Container, image, { version, bomRef: `image:${service}` });
  bom.metadata.component = subject;
  const library = JSON.parse(
    readFileSync(join(import.meta.dirname, '../../node_modules/@cyclonedx/cyclonedx-library/package.json'), 'utf8'),
  );
  bom.metadata.tools.components.add(new Models.Component(Enums.ComponentType.Library, library.name, { version: library.version }));

  const node = new Models.Component(Enums.ComponentType.Platform, 'node', {
    version: inventory.node.replace(/^v/, ''),
    bomRef: 'platform:node',
  });
  bom.components.add(node);
  subject.dependencies.add(node.bomRef);
  const components = new Map<string, Models.Component>();
  for (const entry of inventory.entries) {
    const component = componentOf(entry);
    components.set(entry.path, component);
    bom.components.add(component);
  }
  const linkedTo = new Set(inventory.entries.flatMap((e) => e.dependencies));
  for (const entry of inventory.entries) {
    const component = components.get(entry.path)!;
    for (const dependency of entry.dependencies) component.dependencies.add(components.get(dependency)!.bomRef);
    // What the image runs: its service, and any project nothing links to (the operator CLI in the gateway's).
    const root = entry.path === `services/${service}` || (entry.project && !linkedTo.has(entry.path));
    if (root) subject.dependencies.add(component.bomRef);
  }
  return bom;
}

export function serializeBom(bom: Models.Bom): string {
  const serializer = new Serialize.JsonSerializer(new Serialize.JSON.Normalize.Factory(Spec.Spec1dot6));
  return serializer.serialize(bom, { sortLists: true, space: 2 }) + '\n';
}

function main(args: string[]): void {
  const [client, image, service, out] = args;
  if (!client || !image || !service || !out) throw new Error('usage: node deploy/docker/sbom.ts CLIENT IMAGE SERVICE OUT.cdx.json');
  const version = image.slice(image.lastIndexOf(':') + 1);
  const inventory = readInventory(client, image);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, serializeBom(makeBom(inventory, image, service, version)));
  const packages = inventory.entries.filter((e) => !e.project).length;
  const projects = inventory.entries.length - packages;
  process.stdout.write(`${out}: CycloneDX 1.6, ${packages} packages, ${projects} workspace projects\n`);
}

if (import.meta.main) main(process.argv.slice(2));
