import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';

interface SearchBoxProps {
  className?: string;
  onSearched?: () => void;
}

/** The navbar search: only non-blank text goes to /search?q=. */
export function SearchBox({ className = '', onSearched }: SearchBoxProps) {
  const navigate = useNavigate();
  const [text, setText] = useState('');

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const query = text.trim();
    if (!query) return;
    void navigate(`/search?q=${encodeURIComponent(query)}`);
    onSearched?.();
  }

  return (
    <form role="search" onSubmit={submit} className={className}>
      <input
        type="search"
        value={text}
        onChange={(event) => setText(event.target.value)}
        placeholder="Search tracks, artists, or projects"
        aria-label="Search tracks, artists, or projects"
        className="block w-full rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm text-zinc-900 placeholder:text-zinc-500 focus:outline-2 focus:-outline-offset-1 focus:outline-indigo-500 dark:border-zinc-700 dark:bg-zinc-900 dark:text-white dark:placeholder:text-zinc-400"
      />
    </form>
  );
}
