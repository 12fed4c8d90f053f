import { useState } from 'react';
import { MagicCodeVerifyForm } from './magic-code-verify-form';
import { MagicLinkSendForm } from './magic-link-send-form';

interface MagicLinkPanelProps {
  /** Shown on the first step, e.g. when an emailed link was no longer valid. */
  initialError?: string | null;
}

/** Step 1 sends the email; step 2 takes the 6-digit code from it. */
export function MagicLinkPanel({ initialError = null }: MagicLinkPanelProps) {
  const [step, setStep] = useState<'send' | 'verify'>('send');
  const [email, setEmail] = useState('');

  if (step === 'send') {
    return (
      <MagicLinkSendForm
        email={email}
        onEmailChange={setEmail}
        initialError={initialError}
        onSent={(sentTo) => {
          setEmail(sentTo);
          setStep('verify');
        }}
      />
    );
  }
  return (
    <MagicCodeVerifyForm
      email={email}
      onEmailChange={setEmail}
      onSendNewLink={() => setStep('send')}
    />
  );
}
