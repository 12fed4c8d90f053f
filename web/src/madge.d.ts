// madge ships no types; this covers the part the import-circle test uses.
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
