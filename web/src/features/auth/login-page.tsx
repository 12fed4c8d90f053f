import { useEffect, useState } from 'react';
import { Navigate, useLocation, useSearchParams } from 'react-router';
import { AUTH_MESSAGES } from '@takes/contract';
import { useDocumentTitle } from '../../lib/use-document-title';
import { Alert } from '../../ui/alert';
import { PageSpinner } from '../../ui/spinner';
import { Tabs, type TabItem } from '../../ui/tabs';
import { EmailSignInForm } from './email-sign-in-form';
import { MagicLinkPanel } from './magic-link-panel';
import { OidcSignInButton } from './oidc-sign-in-button';
import { DEFAULT_AFTER_SIGN_IN, redirectTargetFrom } from './redirect-target';
import { forgetReturnTo, rememberReturnTo } from './return-to';
import { SocialSignInPanel } from './social-sign-in-panel';
import { useAuth } from './use-auth';
import { useAuthProvidersState } from './use-auth-providers';
import { useDemoSignIn } from './use-demo-sign-in';

type SignInTab = 'social' | 'email' | 'magic-link';

const TABS: readonly TabItem<SignInTab>[] = [
  { id: 'social', label: 'Social' },
  { id: 'email', label: 'Email' },
  { id: 'magic-link', label: 'Magic Link' },
];

/** The message for `?error=` set by a server redirect back to this page. */
function redirectErrorMessage(params: URLSearchParams): string | null {
  const error = params.get('error');
  if (!error) return null;
  if (error === 'invalid_link') return AUTH_MESSAGES.otpInvalid;
  return params.get('error_description') || 'Authentication failed';
}

export function LoginPage() {
  useDocumentTitle('Sign in · Takes');
  const auth = useAuth();
  const location = useLocation();
  const [searchParams] = useSearchParams();
  const isDemo = searchParams.get('demo') === 'true';
  const demo = useDemoSignIn(isDemo && auth.status === 'signed-out');
  const target = isDemo
    ? DEFAULT_AFTER_SIGN_IN
    : redirectTargetFrom(location.state, searchParams.get('next'));
  const signUp = searchParams.get('mode') === 'sign-up';

  // A magic link opens in a new tab, without this page's router state: remember the target for it
  // (a plain visit keeps what an earlier one remembered: its link may still be on its way).
  useEffect(() => {
    if (auth.status === 'signed-out' && target !== DEFAULT_AFTER_SIGN_IN) rememberReturnTo(target);
    else if (auth.status === 'signed-in') forgetReturnTo();
  }, [auth.status, target]);

  if (auth.status === 'loading') return <PageSpinner label="Checking your session" />;
  if (auth.status === 'signed-in') return <Navigate to={target} replace />;
  if (demo.phase === 'pending') return <PageSpinner label="Preparing your demo workspace" />;

  const redirectError = redirectErrorMessage(searchParams);
  const invalidLink = searchParams.get('error') === 'invalid_link';
  return (
    <SignInCard
      pageError={demo.phase === 'failed' ? demo.error : invalidLink ? null : redirectError}
      magicLinkError={invalidLink ? redirectError : null}
      signUp={signUp}
      target={target}
    />
  );
}

interface SignInCardProps {
  pageError: string | null;
  /** An expired or used emailed link: shown on the Magic Link tab, which opens first. */
  magicLinkError: string | null;
  /** `?mode=sign-up` (an invitation's 'Sign up'): the Email tab opens on its sign-up form. */
  signUp: boolean;
  /** Where a sign-in lands; a provider's sign-in is sent back there. */
  target: string;
}

function SignInCard({ pageError, magicLinkError, signUp, target }: SignInCardProps) {
  const [tab, setTab] = useState<SignInTab>(
    magicLinkError ? 'magic-link' : signUp ? 'email' : 'social',
  );
  // Single sign-on (OIDC_*) comes first; with OIDC_ONLY it is the only way in.
  const { providers, settled } = useAuthProvidersState();
  const oidc = providers?.oidc ?? null;
  const oidcOnly = oidc !== null && providers?.oidc_only === true;

  return (
    <div className="mx-auto max-w-md px-4 py-16 sm:px-6">
      <h1 className="text-center text-2xl font-bold tracking-tight text-zinc-900 dark:text-white">
        Sign in to your account
      </h1>
      {/* Hidden (its space kept) until the providers are known: a single sign-on button appearing
          above the tabs afterwards would shift the whole card. */}
      <div
        className={`mt-8 rounded-xl border border-zinc-200 bg-white p-6 shadow-sm dark:border-zinc-800 dark:bg-zinc-900 ${settled ? '' : 'invisible'}`}
      >
        {pageError && (
          <Alert tone="error" className="mb-4">
            {pageError}
          </Alert>
        )}
        {oidc && <OidcSignInButton name={oidc.name} callbackURL={target} />}
        {oidc && !oidcOnly && (
          <p className="my-4 text-center text-xs text-zinc-500 dark:text-zinc-400">or</p>
        )}
        {!oidcOnly && (
          <Tabs label="Sign-in method" items={TABS} selected={tab} onSelect={setTab}>
            {tab === 'social' && <SocialSignInPanel callbackURL={target} />}
            {tab === 'email' && (
              <EmailSignInForm
                initialMode={signUp ? 'sign-up' : 'sign-in'}
                signups={providers?.signups}
              />
            )}
            {tab === 'magic-link' && <MagicLinkPanel initialError={magicLinkError} />}
          </Tabs>
        )}
      </div>
    </div>
  );
}
