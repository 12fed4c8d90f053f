import path from 'node:path';

/** A file's name without folder and extension, trimmed to 200 characters (a default title). */
export function titleFromFileName(fileName: string): string {
  return path
    .basename(fileName)
    .replace(/\.[^.]+$/, '')
    .trim()
    .slice(0, 200);
}
