/**
 * Summarises a V8 `.cpuprofile` (from `bench/profile.ts` or `node --cpu-prof`): self time and
 * total time (self plus callees, recursion counted once) by function, and self time by file, the
 * largest first; with `steps` (the tool steps the profile covers), each also in µs per step.
 *
 *   npx tsx bench/profile-summary.ts FILE.cpuprofile [steps] [top=40]
 *
 * Raises when the file is not a CPU profile.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, stepsArg, topArg] = process.argv.slice(2);
if (!file) throw new Error('usage: profile-summary FILE.cpuprofile [steps] [top]');
const steps = stepsArg ? Number(stepsArg) : undefined;
const top = Number(topArg ?? 40);
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
if (!Array.isArray(profile.nodes)) throw new Error(`${file}: not a CPU profile (no nodes)`);

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const selfUs = new Map<number, number>();
for (let i = 0; i < profile.samples.length; i += 1) {
  const id = profile.samples[i]!;
  selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
}
const total = [...selfUs.values()].reduce((a, b) => a + b, 0);

const shortUrl = (url: string) =>
  url
    .replace(/^file:\/\//, '')
    .replace(/.*\/node_modules\//, 'nm:')
    .replace(/.*\/(harness|bench)\//, '$1/');
const nameOf = (frame: ProfileNode['callFrame']) =>
  `${frame.functionName || '(anonymous)'} ${shortUrl(frame.url) || '(native)'}`;
const byFunction = new Map<string, number>();
const inclusive = new Map<string, number>();
const byFile = new Map<string, number>();
for (const [id, us] of selfUs) {
  const frame = byId.get(id)!.callFrame;
  const name = nameOf(frame);
  byFunction.set(name, (byFunction.get(name) ?? 0) + us);
  const where = shortUrl(frame.url) || '(native)';
  byFile.set(where, (byFile.get(where) ?? 0) + us);
  const seen = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const n = nameOf(byId.get(at)!.callFrame);
    if (seen.has(n)) continue;
    seen.add(n);
    inclusive.set(n, (inclusive.get(n) ?? 0) + us);
  }
}
const lines: string[] = [];
const print = (title: string, map: Map<string, number>) => {
  lines.push(
    '',
    `${title} (total ${(total / 1000).toFixed(0)} ms${steps ? `, ${(total / steps).toFixed(1)} µs/step` : ''})`,
  );
  for (const [name, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top))
    lines.push(
      `${((100 * us) / total).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(1).padStart(8)} ms${steps ? `  ${(us / steps).toFixed(2).padStart(7)} µs/step` : ''}  ${name}`,
    );
};
print('self time by function', byFunction);
print('total time by function', inclusive);
print('self time by file', byFile);
process.stdout.write(`${lines.join('\n')}\n`);
