/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** The desktop app's deep-link scheme (default `takes`). */
  readonly VITE_DESKTOP_SCHEME?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
