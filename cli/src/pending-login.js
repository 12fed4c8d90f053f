// @ts-check
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

/**
 * The hand-over between a waiting `takes login` and the `takes open takes://auth-callback?code=…`
 * that the operating system runs when the browser returns to the desktop: the login listens on a
 * loopback port and writes where (port and a random path) into a file of the config folder that
 * only this user can read; `open` reads the file and posts the code there.
 */
const FILE = 'pending-login.json';
const MAX_CODE_BYTES = 4096;

/**
 * @typedef {object} PendingLogin
 * @property {Promise<string>} code resolves with the first code handed over
 * @property {() => Promise<void>} close stops listening and removes the file (if still ours)
 */

/**
 * Starts waiting for a code from `deliverAuthCode`.
 * @param {string} dir the config folder
 * @returns {Promise<PendingLogin>}
 */
export async function awaitAuthCode(dir) {
  const secret = randomBytes(24).toString('base64url');
  /** @type {(code: string) => void} */
  let handOver = () => undefined;
  /** @type {Promise<string>} */
  const code = new Promise((resolve) => {
    handOver = resolve;
  });
  const server = http.createServer((request, response) => {
    if (request.method !== 'POST' || request.url !== `/${secret}`) {
      response.writeHead(404).end();
      return;
    }
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (/** @type {string} */ chunk) => {
      body += chunk;
      if (body.length > MAX_CODE_BYTES) request.destroy();
    });
    request.on('end', () => {
      const value = body.trim();
      if (!value) {
        response.writeHead(400).end();
        return;
      }
      response.writeHead(204).end();
      handOver(value);
    });
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(undefined));
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const file = path.join(dir, FILE);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, JSON.stringify({ port, secret, pid: process.pid }), { mode: 0o600 });
  fs.renameSync(temp, file);
  return {
    code,
    async close() {
      await new Promise((resolve) => server.close(() => resolve(undefined)));
      // Another login may have started since: only our own file is removed.
      if (readPending(file)?.secret === secret) fs.rmSync(file, { force: true });
    },
  };
}

/**
 * Hands a code to the waiting `takes login`, if there is one.
 * @param {string} dir the config folder
 * @param {string} code
 * @returns {Promise<boolean>} true when a waiting login took it
 */
export async function deliverAuthCode(dir, code) {
  const file = path.join(dir, FILE);
  const pending = readPending(file);
  if (!pending) return false;
  try {
    const response = await fetch(`http://127.0.0.1:${pending.port}/${pending.secret}`, {
      method: 'POST',
      body: code,
      signal: AbortSignal.timeout(5000),
    });
    return response.status === 204;
  } catch {
    // Nobody listens there any more (the login ended without cleaning up): forget it.
    fs.rmSync(file, { force: true });
    return false;
  }
}

/**
 * @param {string} file
 * @returns {{ port: number; secret: string } | undefined}
 */
function readPending(file) {
  try {
    const parsed = /** @type {unknown} */ (JSON.parse(fs.readFileSync(file, 'utf8')));
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const { port, secret } = /** @type {{ port?: unknown; secret?: unknown }} */ (parsed);
    if (typeof port !== 'number' || !Number.isInteger(port) || port <= 0 || port > 65535)
      return undefined;
    if (typeof secret !== 'string' || !/^[\w-]{16,}$/.test(secret)) return undefined;
    return { port, secret };
  } catch {
    return undefined;
  }
}
