/**
 * node --import tsx server/bench/profile-endpoints.ts DATA_DIR EMAIL PATH... — a CPU profile of the
 * built server answering PATHs (300 times each, one at a time) as EMAIL (password of the bench
 * accounts) on a data folder a `bench:api -- --keep` run left; prints the top functions by self time.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cookieHeader, freePort, startBuiltServer } from './support';

const [dataDir, email, ...paths] = process.argv.slice(2);
if (!dataDir || !email || paths.length === 0) throw new Error('usage: DATA_DIR EMAIL PATH...');
const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-profile-'));
const port = await freePort();
const server = await startBuiltServer(
  port,
  {
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    DATABASE_URL: `sqlite:${path.join(dataDir, 'takes.db')}`,
    SECRET_KEY: 'bench-api-secret-key-0123456789abcdef',
    LOG_LEVEL: 'warn',
    MAIL_TO_LOG: 'true',
  },
  ['--cpu-prof', `--cpu-prof-dir=${profileDir}`],
);
const signIn = await fetch(`${server.origin}/api/auth/sign-in/email`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', origin: server.origin },
  body: JSON.stringify({ email, password: 'violet-mixdown-47' }),
});
const cookie = cookieHeader(signIn);
for (const p of paths) {
  const start = performance.now();
  for (let i = 0; i < 300; i++) {
    const response = await fetch(`${server.origin}${p}`, { headers: { cookie } });
    await response.arrayBuffer();
  }
  console.log(`${p}: ${((performance.now() - start) / 300).toFixed(2)} ms a request`);
}
await server.stop();
const file = fs.readdirSync(profileDir).find((f) => f.endsWith('.cpuprofile'))!;
const profile = JSON.parse(fs.readFileSync(path.join(profileDir, file), 'utf8')) as {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
};
const self = new Map<number, number>();
for (const id of profile.samples) self.set(id, (self.get(id) ?? 0) + 1);
const byName = new Map<string, number>();
for (const node of profile.nodes) {
  const n = self.get(node.id) ?? 0;
  if (!n) continue;
  const where = node.callFrame.url
    .replace(/^.*node_modules\//, '')
    .replace(/^file:\/\/.*\/server\//, '');
  const key = `${node.callFrame.functionName || '(anonymous)'} ${where}:${node.callFrame.lineNumber}`;
  byName.set(key, (byName.get(key) ?? 0) + n);
}
const total = profile.samples.length;
console.log(`profile: ${path.join(profileDir, file)}`);
for (const [key, n] of [...byName].sort((a, b) => b[1] - a[1]).slice(0, 25))
  console.log(`${((100 * n) / total).toFixed(1).padStart(5)} %  ${key}`);
