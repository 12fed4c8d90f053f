/**
 * The auth module's public face: who the caller is (session cookie or desktop/CLI token), the
 * sign-in flows behind it, and the bridge between Fastify's requests and better-auth's.
 */
export {
  AuthService,
  type AuthResult,
  type AuthenticatedUser,
  type RequestContext,
} from './auth.service';
export { forwardCookies, toFetchHeaders } from './fetch-bridge';
