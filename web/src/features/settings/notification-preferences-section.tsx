import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  NOTIFICATION_CATEGORIES,
  NOTIFICATION_CHANNEL_LABELS,
  NOTIFICATION_CHANNELS,
  routes,
  type NotificationCategory,
  type NotificationChannel,
  type NotificationPreferences,
} from '@takes/contract';
import { useId } from 'react';
import { api, errorMessage } from '../../lib/api';
import { Alert } from '../../ui/alert';
import { Spinner } from '../../ui/spinner';
import { notificationKeys } from '../notifications/notifications-api';

const activity = routes.activity;

/** What each kind of event is called here. */
const CATEGORY_LABELS: Record<NotificationCategory, string> = {
  comments: 'Comments and replies',
  versions: 'New versions',
  membership: 'Membership',
  processing: 'Processing',
};

/** /settings 'Notifications': per kind, 'Email and in-app', 'In-app only' or 'Off'. */
export function NotificationPreferencesSection() {
  const headingId = useId();
  const queryClient = useQueryClient();
  const preferences = useQuery({
    queryKey: notificationKeys.preferences,
    queryFn: ({ signal }) => api.call(activity.getNotificationPreferences, { signal }),
  });
  const save = useMutation({
    mutationFn: (next: NotificationPreferences) =>
      api.call(activity.updateNotificationPreferences, { body: next }),
    onSuccess: (saved) => queryClient.setQueryData(notificationKeys.preferences, saved),
  });

  function choose(category: NotificationCategory, channel: NotificationChannel) {
    const current = save.isPending && save.variables ? save.variables : preferences.data;
    if (!current) return;
    save.mutate({ ...current, [category]: channel });
  }

  // While saving, the choice just made shows; a failure goes back to what is saved.
  const shown = save.isPending ? save.variables : preferences.data;

  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId} className="text-lg font-semibold text-zinc-900 dark:text-white">
        Notifications
      </h2>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
        Choose how you hear of what happens in your projects. Emails come batched, a few minutes
        after the first event.
      </p>
      {preferences.isPending ? (
        <div className="mt-4">
          <Spinner label="Loading notification settings" />
        </div>
      ) : preferences.isError ? (
        <div className="mt-4">
          <Alert tone="error">
            {errorMessage(preferences.error, 'Failed to load your notification settings')}
          </Alert>
        </div>
      ) : (
        <div className="mt-4 flex flex-col gap-4">
          {NOTIFICATION_CATEGORIES.map((category) => (
            <fieldset key={category} className="flex flex-wrap items-center gap-x-4 gap-y-2">
              <legend className="mb-1 w-full text-sm font-medium text-zinc-900 dark:text-zinc-100">
                {CATEGORY_LABELS[category]}
              </legend>
              {NOTIFICATION_CHANNELS.map((channel) => (
                <label key={channel} className="inline-flex items-center gap-2 text-sm">
                  <input
                    type="radio"
                    name={`notify-${category}`}
                    value={channel}
                    checked={shown?.[category] === channel}
                    onChange={() => choose(category, channel)}
                    className="size-4 accent-indigo-600"
                  />
                  {NOTIFICATION_CHANNEL_LABELS[channel]}
                </label>
              ))}
            </fieldset>
          ))}
          <div aria-live="polite" className="text-sm">
            {save.isError ? (
              <Alert tone="error">
                {errorMessage(save.error, 'Failed to save your notification settings')}
              </Alert>
            ) : save.isSuccess ? (
              <p className="text-green-700 dark:text-green-400">Saved.</p>
            ) : null}
          </div>
        </div>
      )}
    </section>
  );
}
