// Builds the takes CLI as one npm package that a Takes server offers at /downloads/takes-cli.tgz:
// the CLI and everything it uses bundled into bin/takes.js, with no dependencies left to fetch, so
// `npm install -g https://your-takes.example/downloads/takes-cli.tgz` works on any machine with
// Node.js 20, whether or not the package is on the npm registry.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));
const pkg = JSON.parse(fs.readFileSync(path.join(here, 'package.json'), 'utf8'));
const out = path.join(here, 'dist');
const staging = path.join(out, 'package');
export const TARBALL = path.join(out, 'takes-cli.tgz');

fs.rmSync(out, { recursive: true, force: true });
await build({
  entryPoints: [path.join(here, 'bin', 'takes.js')],
  outfile: path.join(staging, 'bin', 'takes.js'),
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  logLevel: 'warning',
  // Bundled CommonJS modules may call require(); give the ESM output one.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
});
fs.chmodSync(path.join(staging, 'bin', 'takes.js'), 0o755);
fs.writeFileSync(
  path.join(staging, 'package.json'),
  `${JSON.stringify(
    {
      name: 'takes-cli',
      version: pkg.version,
      description: pkg.description,
      type: 'module',
      bin: { takes: 'bin/takes.js' },
      engines: pkg.engines,
      files: ['bin'],
    },
    null,
    2,
  )}\n`,
);
fs.writeFileSync(
  path.join(staging, 'README.md'),
  `# takes\n\nThe command-line client and desktop companion of Takes. Run \`takes --help\`.\n`,
);
const packed = execFileSync('npm', ['pack', '--silent', '--pack-destination', out], {
  cwd: staging,
  encoding: 'utf8',
})
  .trim()
  .split('\n')
  .pop();
fs.renameSync(path.join(out, packed), TARBALL);
