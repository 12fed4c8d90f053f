// @ts-check
import { hostname } from 'node:os';
import { endpoints } from '@takes/contract/runtime';
import { credentialsFrom, SESSION_EXPIRED } from '../api.js';
import { configDir } from '../credentials.js';
import { CliError } from '../errors.js';
import { callServer, resultOf, serverClient } from '../http.js';
import { awaitAuthCode } from '../pending-login.js';
import { ask } from '../prompt.js';

/** @import { DesktopTokenPair, SessionResponse } from '@takes/contract' */
/** @import { Command } from './command.js' */
/** @import { Context } from '../context.js' */

/** @type {Command} */
export const loginCommand = {
  name: 'login',
  summary: 'Sign in: approve in the browser, or with a code sent by email',
  usage: `Usage: takes login [--email ADDRESS] [--code CODE] [--server URL]

Signs in to a Takes server and saves the credentials for the other commands.

  takes login                  open the address shown and approve: when the browser
                               returns to takes:// (see \`takes link register\`), the
                               sign-in completes by itself; else paste the code shown
                               (or the whole takes://auth-callback address)
  takes login --email ADDRESS  a 6-digit code is emailed to you; enter it when asked

Options:
  --email ADDRESS  sign in with a code sent to this address
  --code CODE      give the code instead of being asked (with --email: a code you
                   already received, so no new email is sent)
  --server URL     the Takes server (else $TAKES_SERVER, the last one signed in to,
                   or http://localhost:8080)`,
  options: { email: { type: 'string' }, code: { type: 'string' } },
  async run(ctx, { values }) {
    const email = stringOption(values.email);
    const code = stringOption(values.code);
    // Fail on an unreachable or wrong server before asking the person to do anything.
    await callServer(serverClient(ctx.server), ctx.server, endpoints.health.getHealth);
    const pair = email
      ? await signInWithEmail(ctx, email.trim(), code)
      : await signInWithBrowser(ctx, code);
    const session = await sessionFor(ctx.server, pair.access_token);
    ctx.store.write(credentialsFrom(ctx.server, pair, session.user.email));
    ctx.print(`Signed in as ${session.user.email} on ${ctx.server}`);
  },
};

/** @type {Command} */
export const logoutCommand = {
  name: 'logout',
  summary: 'Forget the saved sign-in',
  usage: `Usage: takes logout

Removes the saved credentials from this computer.`,
  options: {},
  run(ctx) {
    const saved = ctx.saved;
    if (ctx.store.remove() && saved) ctx.print(`Signed out of ${saved.server}`);
    else ctx.print('You were not signed in.');
    return Promise.resolve();
  },
};

/** @type {Command} */
export const whoamiCommand = {
  name: 'whoami',
  summary: 'Show who you are signed in as',
  usage: `Usage: takes whoami [--server URL]

Prints the signed-in account and server.`,
  options: {},
  async run(ctx) {
    const session = await ctx.api().call(endpoints.auth.getSession);
    // A bearer token that fails answers 401 (and is refreshed); no user at all would mean the
    // token was not even read.
    if (session.user === null) throw new CliError(SESSION_EXPIRED);
    ctx.print(`${session.user.email} on ${ctx.server}`);
  },
};

/**
 * @param {Context} ctx
 * @param {string | undefined} given
 * @returns {Promise<DesktopTokenPair>}
 */
async function signInWithBrowser(ctx, given) {
  let answer = given;
  if (answer === undefined) {
    // Either way in: the browser's return to takes:// (the handler `takes link register` set up
    // runs `takes open`, which hands the code over here), or the code pasted.
    const pending = await awaitAuthCode(configDir(ctx.env));
    const pasted = new AbortController();
    try {
      ctx.note(
        `Open this address in your browser and approve the sign-in: ${ctx.server}/desktop-auth`,
      );
      ctx.note('Takes continues here by itself once the browser returns to the desktop.');
      answer = await Promise.race([
        pending.code.then((code) => {
          ctx.note('Sign-in approved in the browser.');
          return code;
        }),
        ask('Paste the code shown after approval:', { signal: pasted.signal }),
      ]);
    } finally {
      pasted.abort();
      await pending.close();
    }
  }
  const code = codeFromAnswer(answer);
  if (!code) throw new CliError('No code was entered.');
  return exchange(ctx.server, code);
}

/**
 * The code itself, or the code in a pasted takes://auth-callback?code=… (or /desktop-return?code=…) address.
 * @param {string} answer
 */
export function codeFromAnswer(answer) {
  const trimmed = answer.trim();
  const match = /[?&]code=([^&#\s]+)/.exec(trimmed);
  if (!match?.[1]) return trimmed;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return match[1];
  }
}

/**
 * Emailed code → a cookie session → an approved one-time code → tokens; the cookie session
 * is then signed out, so only the tokens remain.
 * @param {Context} ctx
 * @param {string} email
 * @param {string | undefined} given
 * @returns {Promise<DesktopTokenPair>}
 */
async function signInWithEmail(ctx, email, given) {
  const server = ctx.server;
  // No token yet: these calls prove who is signing in by the emailed code.
  const anonymous = serverClient(server);
  let code = given?.trim();
  if (code === undefined) {
    await callServer(anonymous, server, endpoints.auth.sendMagicCode, { body: { email } });
    ctx.note(`A sign-in code was sent to ${email}.`);
    code = (await ask('Enter the 6-digit code from your email:')).trim();
  }
  if (!code) throw new CliError('No code was entered.');

  const verifyEndpoint = endpoints.auth.verifyMagicCode;
  const verified = await anonymous.fetch(verifyEndpoint, { body: { email, code } });
  await resultOf(verified, server, verifyEndpoint);
  const cookie = verified.headers
    .getSetCookie()
    .map((header) => header.split(';', 1)[0])
    .join('; ');
  if (!cookie)
    throw new CliError('The server signed in without a session cookie; cannot continue.');

  // A cookie-carrying request must come from the site's own origin (CSRF protection).
  const sessionHeaders = { cookie, origin: new URL(server).origin };
  const session = serverClient(server, () => sessionHeaders);
  try {
    const approved = await callServer(session, server, endpoints.desktop.approveDesktopSignIn);
    return await exchange(server, approved.code);
  } finally {
    await session
      .fetch(endpoints.auth.signOut)
      .then((response) => response.body?.cancel())
      .catch(() => {
        // The tokens work regardless; an unended browser session expires by itself.
      });
  }
}

/**
 * @param {string} server
 * @param {string} code
 * @returns {Promise<DesktopTokenPair>}
 */
async function exchange(server, code) {
  return callServer(serverClient(server), server, endpoints.desktop.exchangeDesktopCode, {
    body: { code, name: deviceName() },
  });
}

/** How this sign-in is listed under 'Devices' on the web app's /settings. */
export function deviceName() {
  return `takes CLI on ${hostname() || 'this computer'}`.slice(0, 100);
}

/**
 * @param {string} server
 * @param {string} accessToken
 * @returns {Promise<SessionResponse>}
 */
async function sessionFor(server, accessToken) {
  const client = serverClient(server, () => ({ authorization: `Bearer ${accessToken}` }));
  const session = await callServer(client, server, endpoints.auth.getSession);
  if (session.user === null) throw new CliError(SESSION_EXPIRED);
  return session;
}

/** @param {unknown} value */
function stringOption(value) {
  return typeof value === 'string' ? value : undefined;
}
