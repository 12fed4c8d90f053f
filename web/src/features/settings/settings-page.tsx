import { useState } from 'react';
import { useDocumentTitle } from '../../lib/use-document-title';
import { ChangePasswordForm } from './change-password-form';
import { DevicesSection } from './devices-section';
import { ExportDataSection } from './export-data-section';
import { NotificationPreferencesSection } from './notification-preferences-section';
import { OtherSessionsSection } from './other-sessions-section';
import { StorageSection } from './storage-usage';

export function SettingsPage() {
  useDocumentTitle('Settings · Takes');
  // Signing out the other sessions signs out the devices too: list them again.
  const [devicesVersion, setDevicesVersion] = useState(0);
  return (
    <div className="mx-auto max-w-2xl px-4 py-12 sm:px-6">
      <h1 className="text-3xl font-bold tracking-tight text-zinc-900 dark:text-white">Settings</h1>
      <div className="mt-8 flex flex-col gap-10">
        <StorageSection />
        <ChangePasswordForm />
        <NotificationPreferencesSection />
        <OtherSessionsSection onSignedOut={() => setDevicesVersion((v) => v + 1)} />
        <DevicesSection key={devicesVersion} />
        <ExportDataSection />
      </div>
    </div>
  );
}
