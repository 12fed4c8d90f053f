import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';

/** What the provider says about a person: the test picks the address and whether it is verified. */
export interface TestOidcAccount {
  email: string;
  email_verified: boolean;
  name?: string;
}

export interface TestOidcProviderOptions {
  /** The app's callback, e.g. http://127.0.0.1:8080/api/auth/callback/oidc. */
  redirectUri: string;
  clientId?: string;
  clientSecret?: string;
  /** Seconds an authorization code lives (the provider's default is 60). */
  codeTtlSeconds?: number;
  /** Port to listen on; a free one when left out. */
  port?: number;
  /**
   * Who signs in as a login no test added (when the provider runs in another process than the
   * test, as for Playwright): undefined refuses the login.
   */
  accountFor?: (login: string) => TestOidcAccount | undefined;
}

export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Sets (or replaces) the person who signs in as `login` on the provider's form. */
  addAccount: (login: string, account: TestOidcAccount) => void;
  /**
   * From then on the JWKS endpoint publishes another key than the one that signs ID tokens:
   * every ID token then fails signature verification.
   */
  publishForeignKeys: () => Promise<void>;
  close: () => Promise<void>;
}

/**
 * A real OpenID provider (the `oidc-provider` package) listening on 127.0.0.1, with one
 * confidential client, its development login form (any password; the login names the account)
 * and consent already granted to that client, so a sign-in is: open the authorization URL, post
 * the login form, follow the redirects back to the app.
 */
export async function startTestOidcProvider(
  options: TestOidcProviderOptions,
): Promise<TestOidcProvider> {
  const clientId = options.clientId ?? 'takes-test-client';
  const clientSecret = options.clientSecret ?? 'takes-test-client-secret-0123456789';
  const accounts = new Map<string, TestOidcAccount>();
  let foreignJwks: { keys: unknown[] } | null = null;

  // Requests that arrive while the provider is being made wait for it (the issuer needs the port).
  let ready: (handler: RequestListener) => void = () => {};
  const handler = new Promise<RequestListener>((resolve) => (ready = resolve));
  const server: Server = createServer((request, response) => {
    void handler.then((handle) => handle(request, response));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const issuer = `http://127.0.0.1:${port}`;

  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const signingKey = { ...(await exportJWK(privateKey)), kid: 'test-signing-key', use: 'sig' };
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [options.redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    jwks: { keys: [signingKey] },
    cookies: { keys: ['test-oidc-cookie-key-0123456789'] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    ttl: {
      AuthorizationCode: options.codeTtlSeconds ?? 60,
      AccessToken: 3600,
      IdToken: 3600,
      Grant: 3600,
      Interaction: 600,
      Session: 3600,
    },
    features: { devInteractions: { enabled: true } },
    findAccount: (_ctx, id) => {
      const account = accounts.get(id) ?? options.accountFor?.(id);
      if (!account) return undefined;
      return {
        accountId: id,
        claims: () => ({ sub: id, ...account, name: account.name ?? id }),
      };
    },
    // Our client is first-party: consent is granted up front, so only the login form shows.
    loadExistingGrant: async (ctx) => {
      const session = ctx.oidc.session;
      const client = ctx.oidc.client;
      if (!session?.accountId || !client) return undefined;
      const existing = ctx.oidc.result?.consent?.grantId ?? session.grantIdFor(client.clientId);
      if (existing) return ctx.oidc.provider.Grant.find(existing);
      const grant = new ctx.oidc.provider.Grant({
        accountId: session.accountId,
        clientId: client.clientId,
      });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
  });
  const callback = provider.callback();
  ready((request, response) => {
    if (foreignJwks && request.url === '/jwks') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(foreignJwks));
      return;
    }
    void callback(request, response);
  });

  return {
    issuer,
    clientId,
    clientSecret,
    addAccount: (login, account) => accounts.set(login, account),
    publishForeignKeys: async () => {
      const { publicKey } = await generateKeyPair('RS256');
      foreignJwks = {
        keys: [{ ...(await exportJWK(publicKey)), kid: 'test-signing-key', use: 'sig' }],
      };
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** The cookies a browser would keep for one site (paths ignored: the provider is one site). */
class CookieJar {
  private readonly cookies = new Map<string, string>();
  take(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const pair = line.split(';')[0] ?? '';
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      if (/expires=Thu, 01 Jan 1970/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/**
 * Plays the browser at the provider: opens the authorization URL, signs in on its login form as
 * `login`, and follows the provider's redirects until they leave it. Answers the URL the provider
 * sends the browser to (the app's callback with `code`, `state` and `iss`).
 */
export async function signInAtProvider(authorizationUrl: string, login: string): Promise<URL> {
  const jar = new CookieJar();
  let url = new URL(authorizationUrl);
  const origin = url.origin;
  let form: URLSearchParams | null = null;
  for (let hop = 0; hop < 10; hop++) {
    const response = await fetch(url, {
      method: form ? 'POST' : 'GET',
      headers: {
        cookie: jar.header(),
        ...(form && { 'content-type': 'application/x-www-form-urlencoded' }),
      },
      body: form?.toString(),
      redirect: 'manual',
    });
    jar.take(response);
    form = null;
    const location = response.headers.get('location');
    if (location) {
      url = new URL(location, url);
      if (url.origin !== origin) return url;
      continue;
    }
    const page = await response.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1];
    if (response.status !== 200 || !action || !page.includes('name="login"')) {
      throw new Error(`The provider answered ${response.status} without its login form: ${page}`);
    }
    url = new URL(action, url);
    form = new URLSearchParams({ prompt: 'login', login, password: 'any password' });
  }
  throw new Error('The provider kept redirecting');
}
