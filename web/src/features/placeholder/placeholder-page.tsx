interface PlaceholderPageProps {
  title: string;
}

/** Stands in for a screen that is not built yet. */
export function PlaceholderPage({ title }: PlaceholderPageProps) {
  return (
    <div className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
      <h1 className="text-3xl font-bold tracking-tight text-zinc-900 sm:text-4xl dark:text-white">
        {title}
      </h1>
    </div>
  );
}
