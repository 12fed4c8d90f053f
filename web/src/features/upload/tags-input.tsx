import { useId, useState, type KeyboardEvent } from 'react';

interface TagsInputProps {
  tags: string[];
  onChange: (tags: string[]) => void;
  label?: string;
  disabled?: boolean;
}

/** Adds a tag to the list: trimmed, empty ignored, duplicates ignored. */
export function addTag(tags: readonly string[], text: string): string[] {
  const tag = text.trim();
  if (!tag || tags.includes(tag)) return [...tags];
  return [...tags, tag];
}

/** Tags: Enter or Add adds, Add is disabled while the text is blank, each tag is removable. */
export function TagsInput({ tags, onChange, label = 'Tags', disabled = false }: TagsInputProps) {
  const inputId = useId();
  const [text, setText] = useState('');
  const blank = text.trim() === '';

  function add() {
    if (blank) return;
    onChange(addTag(tags, text));
    setText('');
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key !== 'Enter') return;
    // Enter adds a tag rather than submitting the surrounding form.
    event.preventDefault();
    add();
  }

  return (
    <div>
      <label
        htmlFor={inputId}
        className="block text-sm font-medium text-zinc-800 dark:text-zinc-200"
      >
        {label}
      </label>
      <div className="mt-1 flex gap-2">
        <input
          id={inputId}
          type="text"
          value={text}
          disabled={disabled}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
          placeholder="Add a tag and press Enter"
          className="block w-full min-w-0 rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm text-zinc-900 shadow-sm placeholder:text-zinc-500 focus:outline-2 focus:-outline-offset-1 focus:outline-indigo-500 disabled:opacity-60 dark:border-zinc-700 dark:bg-zinc-900 dark:text-white dark:placeholder:text-zinc-400"
        />
        <button
          type="button"
          onClick={add}
          disabled={disabled || blank}
          className="rounded-md border border-zinc-300 px-3 py-2 text-sm font-semibold text-zinc-800 hover:bg-zinc-50 focus-visible:outline-2 focus-visible:outline-indigo-500 disabled:cursor-not-allowed disabled:opacity-60 dark:border-zinc-700 dark:text-zinc-100 dark:hover:bg-zinc-800"
        >
          Add
        </button>
      </div>
      {tags.length > 0 && (
        <ul aria-label="Tags added" className="mt-2 flex flex-wrap gap-2">
          {tags.map((tag) => (
            <li
              key={tag}
              className="inline-flex items-center gap-1 rounded-full bg-indigo-100 py-0.5 pr-1 pl-2.5 text-xs font-medium text-indigo-800 dark:bg-indigo-950 dark:text-indigo-200"
            >
              {tag}
              <button
                type="button"
                disabled={disabled}
                onClick={() => onChange(tags.filter((t) => t !== tag))}
                aria-label={`Remove tag ${tag}`}
                className="rounded-full px-1 hover:bg-indigo-200 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:hover:bg-indigo-900"
              >
                <span aria-hidden="true">×</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
