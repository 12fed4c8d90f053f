// madge ships no types; this covers the part the import-circle tests (server and web) use.
declare module 'madge' {
  interface MadgeConfig {
    fileExtensions?: string[];
    excludeRegExp?: RegExp[];
    tsConfig?: string;
  }
  interface MadgeResult {
    /** Each circle as the files in it, relative to the folder read. */
    circular(): string[][];
  }
  export default function madge(path: string, config?: MadgeConfig): Promise<MadgeResult>;
}
