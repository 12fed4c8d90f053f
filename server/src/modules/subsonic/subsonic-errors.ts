/**
 * Subsonic's error codes (http://www.subsonic.org/pages/api.jsp, and OpenSubsonic's 43/44 of the
 * `apiKeyAuthentication` extension). A failed call still answers HTTP 200 with
 * `status="failed"` and `error: { code, message }`, as players expect.
 */
export const SUBSONIC_ERRORS = {
  generic: 0,
  missingParameter: 10,
  wrongCredentials: 40,
  /** Password and token sign-in: they would need the plain password, which Takes never keeps. */
  mechanismNotSupported: 42,
  conflictingMechanisms: 43,
  invalidApiKey: 44,
  notAuthorized: 50,
  notFound: 70,
} as const;

export type SubsonicErrorCode = (typeof SUBSONIC_ERRORS)[keyof typeof SUBSONIC_ERRORS];

export class SubsonicError extends Error {
  constructor(
    readonly code: SubsonicErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'SubsonicError';
  }
}

/** What any id the caller cannot read answers: exactly a missing one's answer. */
export const notFound = (what: string) => new SubsonicError(70, `${what} not found.`);
