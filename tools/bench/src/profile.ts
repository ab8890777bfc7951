/**
 * Where a process's CPU went, from a V8 `.cpuprofile` (node --cpu-prof): self time per layer, a layer
 * being an npm package, a file of ours, Node's own code, or V8's (GC, program, idle).
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export function layerOf(url: string, functionName: string): string {
  if (url === '') return `(${functionName.replace(/[()]/g, '') || 'native'})`;
  const pnpm = /node_modules\/\.pnpm\/[^/]+\/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pnpm) return pnpm[1]!;
  const module = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (module) return module[1]!;
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0]}`;
  const ours = /((?:services|packages|scripts)\/.*)$/.exec(url);
  return ours ? ours[1]! : url;
}

/** Milliseconds of self time per layer, busiest first, and the total sampled (idle excluded). */
export function summarizeProfile(file: string): { total: number; layers: [string, number][] } {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const layers = new Map<string, number>();
  profile.samples.forEach((id, index) => {
    const node = byId.get(id);
    if (!node) return;
    const layer = layerOf(node.callFrame.url, node.callFrame.functionName);
    layers.set(layer, (layers.get(layer) ?? 0) + (profile.timeDeltas[index] ?? 0) / 1000);
  });
  layers.delete('(idle)');
  const sorted = [...layers].sort((a, b) => b[1] - a[1]);
  return { total: sorted.reduce((sum, [, ms]) => sum + ms, 0), layers: sorted };
}

if (import.meta.main) {
  for (const file of process.argv.slice(2)) {
    const { total, layers } = summarizeProfile(file);
    console.log(`${file}: ${total.toFixed(0)} ms busy`);
    for (const [layer, ms] of layers.slice(0, 25)) console.log(`  ${((100 * ms) / total).toFixed(1).padStart(5)}%  ${layer}`);
  }
}
