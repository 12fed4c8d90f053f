// @ts-check
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { CliError } from './errors.js';
import { refusal, unreachable } from './http.js';

/**
 * PUTs a file to a publish upload URL, streamed from disk (never held in memory whole).
 * @param {{
 *   url: string;
 *   token: string;
 *   file: string;
 *   size: number;
 *   contentType: string;
 *   onProgress?: (sent: number) => void;
 * }} options
 * @returns {Promise<unknown>} the server's JSON answer
 */
export function uploadFile(options) {
  const url = new URL(options.url);
  const client = url.protocol === 'https:' ? https : url.protocol === 'http:' ? http : undefined;
  if (!client) return Promise.reject(new CliError(`Cannot upload to ${options.url}`));
  const origin = url.origin;

  return new Promise((resolve, reject) => {
    let settled = false;
    /** @param {() => void} action */
    const settle = (action) => {
      if (settled) return;
      settled = true;
      action();
    };
    const source = fs.createReadStream(options.file);
    const request = client.request(url, {
      method: 'PUT',
      // Its own connection, closed with the answer: nothing is left to keep `takes` running.
      agent: false,
      headers: {
        'content-type': options.contentType,
        'content-length': String(options.size),
        'x-upsert-token': options.token,
      },
    });

    let sent = 0;
    source.on('data', (chunk) => {
      sent += chunk.length;
      options.onProgress?.(sent);
    });
    source.on('error', (error) => {
      request.destroy();
      settle(() => reject(new CliError(`Could not read ${options.file}: ${error.message}`)));
    });

    request.on('response', (response) => {
      // The server may answer before the whole file has gone up (a refused size), or before
      // the last read of the file has ended the request. Either way the upload is over: stop
      // reading, and close the connection once the answer is in, or the unfinished request
      // would hold the socket (and this process) open.
      const unfinished = !request.writableEnded;
      source.unpipe(request);
      source.destroy();
      if (unfinished) response.once('close', () => request.destroy());
      /** @type {Buffer[]} */
      const parts = [];
      response.on('data', (chunk) => parts.push(/** @type {Buffer} */ (chunk)));
      response.on('error', (error) => settle(() => reject(unreachable(origin, error))));
      response.on('end', () => {
        const text = Buffer.concat(parts).toString('utf8');
        const status = response.statusCode ?? 0;
        settle(() => {
          if (status < 200 || status >= 300) {
            reject(refusal(status, response.statusMessage ?? '', text));
            return;
          }
          try {
            resolve(/** @type {unknown} */ (JSON.parse(text)));
          } catch {
            resolve(undefined);
          }
        });
      });
    });
    // After an early answer the socket may be cut under the unfinished upload; the answer wins.
    request.on('error', (error) => {
      setTimeout(() => settle(() => reject(unreachable(origin, error))), 200);
    });

    source.pipe(request);
  });
}
