/** Small inline icons for the player; decorative, the buttons carry the labels. */
const common = {
  'aria-hidden': true,
  viewBox: '0 0 24 24',
  fill: 'currentColor',
  className: 'size-5',
} as const;

export function PlayIcon() {
  return (
    <svg {...common}>
      <path d="M8 5.14v13.72a1 1 0 0 0 1.52.85l10.9-6.86a1 1 0 0 0 0-1.7L9.52 4.29A1 1 0 0 0 8 5.14Z" />
    </svg>
  );
}

export function PauseIcon() {
  return (
    <svg {...common}>
      <path d="M7 5h3.5v14H7zM13.5 5H17v14h-3.5z" />
    </svg>
  );
}

export function PreviousTrackIcon() {
  return (
    <svg {...common}>
      <path d="M6 5h2.5v14H6zM19 5.5v13L9.5 12 19 5.5Z" />
    </svg>
  );
}

export function NextTrackIcon() {
  return (
    <svg {...common}>
      <path d="M15.5 5H18v14h-2.5zM5 5.5v13l9.5-6.5L5 5.5Z" />
    </svg>
  );
}

export function SkipBackIcon() {
  return (
    <svg {...common}>
      <path d="M11 6.5v11L3.5 12 11 6.5Zm9 0v11L12.5 12 20 6.5Z" />
    </svg>
  );
}

export function SkipForwardIcon() {
  return (
    <svg {...common}>
      <path d="M13 6.5v11l7.5-5.5L13 6.5Zm-9 0v11l7.5-5.5L4 6.5Z" />
    </svg>
  );
}

export function LoopIcon() {
  return (
    <svg {...common} fill="none" stroke="currentColor" strokeWidth={2}>
      <path d="M17 2l3 3-3 3M4 11V9a4 4 0 0 1 4-4h12M7 22l-3-3 3-3M20 13v2a4 4 0 0 1-4 4H4" />
    </svg>
  );
}

export function VolumeIcon({ muted }: { muted: boolean }) {
  return (
    <svg {...common} fill="none" stroke="currentColor" strokeWidth={2}>
      <path d="M11 5 6 9H2v6h4l5 4V5Z" fill="currentColor" />
      {muted ? (
        <path d="m23 9-6 6M17 9l6 6" />
      ) : (
        <path d="M15.5 8.5a5 5 0 0 1 0 7M19 5a10 10 0 0 1 0 14" />
      )}
    </svg>
  );
}

export function DownloadIcon() {
  return (
    <svg {...common} fill="none" stroke="currentColor" strokeWidth={2}>
      <path d="M12 3v12m0 0-5-5m5 5 5-5M4 21h16" />
    </svg>
  );
}

export function ShareIcon() {
  return (
    <svg {...common} fill="none" stroke="currentColor" strokeWidth={2}>
      <path d="M4 12v7a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-7M16 6l-4-4-4 4M12 2v13" />
    </svg>
  );
}

export function ExpandIcon() {
  return (
    <svg {...common} fill="none" stroke="currentColor" strokeWidth={2}>
      <path d="m6 15 6-6 6 6" />
    </svg>
  );
}

export function CollapseIcon() {
  return (
    <svg {...common} fill="none" stroke="currentColor" strokeWidth={2}>
      <path d="m6 9 6 6 6-6" />
    </svg>
  );
}
