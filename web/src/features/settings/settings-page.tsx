import { useDocumentTitle } from '../../lib/use-document-title';
import { ChangePasswordForm } from './change-password-form';
import { OtherSessionsSection } from './other-sessions-section';

export function SettingsPage() {
  useDocumentTitle('Settings · Takes');
  return (
    <div className="mx-auto max-w-2xl px-4 py-12 sm:px-6">
      <h1 className="text-3xl font-bold tracking-tight text-zinc-900 dark:text-white">Settings</h1>
      <div className="mt-8 flex flex-col gap-10">
        <ChangePasswordForm />
        <OtherSessionsSection />
      </div>
    </div>
  );
}
