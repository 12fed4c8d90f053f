import {
  CONTACT_MESSAGES,
  CONTACT_ROLES,
  contactBodySchema,
  type ContactBody,
} from '@takes/contract';
import { useState, type FormEvent } from 'react';
import { usePageMeta } from '../../lib/use-page-meta';
import { primaryButton } from '../../ui/button-styles';
import { Tabs } from '../../ui/tabs';
import { inputClass, TextField } from '../../ui/text-field';
import { PageHeader, PageShell } from '../marketing/page-parts';
import { CONTACT_SEND_FAILED, sendContactMessage } from './contact-api';

type Topic = 'general' | 'artists' | 'labels';
type Role = (typeof CONTACT_ROLES)[number];

const topics = [
  { id: 'general', label: 'General' },
  { id: 'artists', label: 'Artists' },
  { id: 'labels', label: 'Labels' },
] as const satisfies readonly { id: Topic; label: string }[];

const topicIntros: Record<Topic, string> = {
  general:
    'Questions about Takes, your account, privacy or working with us. We read every message.',
  artists:
    'Musicians, producers, engineers and songwriters: tell us how you work and what Takes should do better.',
  labels:
    'Labels and management: ask about using Takes with the artists you represent and their teams.',
};

const roleLabels: Record<Role, string> = {
  artist: 'Artist',
  producer: 'Producer',
  engineer: 'Engineer',
  songwriter: 'Songwriter',
  other: 'Other',
};

interface FormValues {
  name: string;
  email: string;
  subject: string;
  message: string;
  role: Role | '';
  company_name: string;
  artists_represented: string;
}

const emptyForm: FormValues = {
  name: '',
  email: '',
  subject: '',
  message: '',
  role: '',
  company_name: '',
  artists_represented: '',
};

type FieldErrors = Partial<Record<keyof FormValues, string>>;

/** Only the fields the chosen tab shows are sent. */
function bodyFor(topic: Topic, values: FormValues): ContactBody {
  return {
    topic,
    name: values.name,
    email: values.email,
    subject: values.subject,
    message: values.message,
    role: topic === 'artists' && values.role ? values.role : undefined,
    company_name: topic === 'labels' ? values.company_name : undefined,
    artists_represented: topic === 'labels' ? values.artists_represented : undefined,
  };
}

function validate(body: ContactBody): FieldErrors {
  const result = contactBodySchema.safeParse(body);
  if (result.success) return {};
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0] as keyof FormValues | undefined;
    if (field && !errors[field]) errors[field] = issue.message;
  }
  return errors;
}

export function ContactPage() {
  usePageMeta(
    'Contact · Takes',
    'Write to the Takes team: general questions, artists and producers, labels and management.',
  );
  const [topic, setTopic] = useState<Topic>('general');
  const [values, setValues] = useState<FormValues>(emptyForm);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState(false);
  const [sendError, setSendError] = useState<string | null>(null);

  function update<K extends keyof FormValues>(field: K, value: FormValues[K]) {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSent(false);
    setSendError(null);
    const body = bodyFor(topic, values);
    const fieldErrors = validate(body);
    setErrors(fieldErrors);
    if (Object.keys(fieldErrors).length > 0) return;

    setSending(true);
    try {
      await sendContactMessage(body);
      setValues(emptyForm);
      setSent(true);
    } catch (error) {
      // Keep everything the visitor typed so nothing is lost.
      setSendError(error instanceof Error ? error.message : CONTACT_SEND_FAILED);
    } finally {
      setSending(false);
    }
  }

  return (
    <PageShell>
      <PageHeader eyebrow="Contact" title="Get in touch">
        <p>Choose who is writing, and we will route your message to the right people.</p>
      </PageHeader>

      <Tabs label="Who is writing" items={topics} selected={topic} onSelect={setTopic}>
        <p className="mb-6 text-zinc-600 dark:text-zinc-400">{topicIntros[topic]}</p>
        <form noValidate onSubmit={(event) => void onSubmit(event)} className="space-y-5">
          {sent && (
            <div
              role="alert"
              className="rounded-md border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm text-emerald-800 dark:border-emerald-900/60 dark:bg-emerald-950/40 dark:text-emerald-200"
            >
              {CONTACT_MESSAGES.thanks}
            </div>
          )}
          <div className="grid gap-5 sm:grid-cols-2">
            <TextField
              label="Name"
              name="name"
              autoComplete="name"
              required
              value={values.name}
              onValueChange={(value) => update('name', value)}
              error={errors.name}
            />
            <TextField
              label="Email"
              name="email"
              type="email"
              autoComplete="email"
              required
              value={values.email}
              onValueChange={(value) => update('email', value)}
              error={errors.email}
            />
          </div>

          {topic === 'artists' && (
            <SelectField
              label="Role"
              value={values.role}
              onChange={(value) => update('role', value)}
              error={errors.role}
            />
          )}

          {topic === 'labels' && (
            <div className="grid gap-5 sm:grid-cols-2">
              <TextField
                label="Company Name (optional)"
                name="company_name"
                autoComplete="organization"
                value={values.company_name}
                onValueChange={(value) => update('company_name', value)}
                error={errors.company_name}
              />
              <TextField
                label="Artists Represented (optional)"
                name="artists_represented"
                value={values.artists_represented}
                onValueChange={(value) => update('artists_represented', value)}
                error={errors.artists_represented}
              />
            </div>
          )}

          <TextField
            label="Subject"
            name="subject"
            required
            value={values.subject}
            onValueChange={(value) => update('subject', value)}
            error={errors.subject}
          />
          <MessageField
            value={values.message}
            onChange={(value) => update('message', value)}
            error={errors.message}
          />

          {sendError && (
            <p role="alert" className="text-sm font-medium text-red-600 dark:text-red-400">
              {sendError}
            </p>
          )}
          <button type="submit" className={primaryButton} disabled={sending}>
            {sending ? 'Sending…' : 'Send Message'}
          </button>
        </form>
      </Tabs>
    </PageShell>
  );
}

function SelectField({
  label,
  value,
  onChange,
  error,
}: {
  label: string;
  value: Role | '';
  onChange: (value: Role | '') => void;
  error: string | undefined;
}) {
  return (
    <div>
      <label
        htmlFor="contact-role"
        className="block text-sm font-medium text-zinc-800 dark:text-zinc-200"
      >
        {label}
      </label>
      <select
        id="contact-role"
        name="role"
        value={value}
        onChange={(event) => onChange(event.target.value as Role | '')}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? 'contact-role-error' : undefined}
        className={`${inputClass} mt-1 border-zinc-300 dark:border-zinc-700`}
      >
        <option value="">Select your role</option>
        {CONTACT_ROLES.map((role) => (
          <option key={role} value={role}>
            {roleLabels[role]}
          </option>
        ))}
      </select>
      {error && (
        <p id="contact-role-error" className="mt-1 text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}

function MessageField({
  value,
  onChange,
  error,
}: {
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
}) {
  return (
    <div>
      <label
        htmlFor="contact-message"
        className="block text-sm font-medium text-zinc-800 dark:text-zinc-200"
      >
        Message
      </label>
      <textarea
        id="contact-message"
        name="message"
        required
        rows={6}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? 'contact-message-error' : undefined}
        className={`${inputClass} mt-1 ${error ? 'border-red-500 dark:border-red-500' : 'border-zinc-300 dark:border-zinc-700'}`}
      />
      {error && (
        <p id="contact-message-error" className="mt-1 text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}
