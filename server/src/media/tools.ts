import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

export interface MediaTools {
  ffmpeg: string;
  ffprobe: string;
  /** Where each binary came from, for the health report and logs. */
  source: { ffmpeg: ToolSource; ffprobe: ToolSource };
}

export type ToolSource = 'env' | 'system' | 'npm';

const require = createRequire(import.meta.url);

/**
 * Finds ffmpeg and ffprobe: FFMPEG_PATH / FFPROBE_PATH first, then the system PATH,
 * then the binaries shipped by the npm packages, so a fresh machine needs only npm install.
 */
export function resolveMediaTools(
  configured: { ffmpegPath: string | undefined; ffprobePath: string | undefined },
  searchPath: string = process.env.PATH ?? '',
): MediaTools {
  const ffmpeg = resolveOne(
    'ffmpeg',
    configured.ffmpegPath,
    searchPath,
    '@ffmpeg-installer/ffmpeg',
  );
  const ffprobe = resolveOne(
    'ffprobe',
    configured.ffprobePath,
    searchPath,
    '@ffprobe-installer/ffprobe',
  );
  return {
    ffmpeg: ffmpeg.path,
    ffprobe: ffprobe.path,
    source: { ffmpeg: ffmpeg.source, ffprobe: ffprobe.source },
  };
}

/** Said wherever the npm-shipped ffmpeg is the one in use (the log at start, the health report). */
export const BUNDLED_FFMPEG_HINT =
  "the npm-shipped ffmpeg (4.1, 2018) is in use, about 3x slower than a current one: install your system's ffmpeg (apt-get install ffmpeg, brew install ffmpeg) or set FFMPEG_PATH";

/** Which ffmpeg is in use, in words: its path and where it came from. */
export function describeFfmpeg(tools: Pick<MediaTools, 'ffmpeg' | 'source'>): string {
  const from = { env: 'FFMPEG_PATH', system: 'the system PATH', npm: 'the npm package' }[
    tools.source.ffmpeg
  ];
  return `${tools.ffmpeg} (from ${from})`;
}

function resolveOne(
  name: string,
  configured: string | undefined,
  searchPath: string,
  npmPackage: string,
): { path: string; source: ToolSource } {
  if (configured) {
    if (!isExecutable(configured)) {
      throw new Error(
        `${name.toUpperCase()}_PATH points to ${configured}, which is not an executable file`,
      );
    }
    return { path: configured, source: 'env' };
  }
  for (const dir of searchPath.split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(dir, name);
    if (isExecutable(candidate)) return { path: candidate, source: 'system' };
  }
  try {
    const shipped = (require(npmPackage) as { path: string }).path;
    if (isExecutable(shipped)) return { path: shipped, source: 'npm' };
  } catch {
    // The package has no binary for this platform; fall through to the error below.
  }
  throw new Error(
    `${name} was not found: set ${name.toUpperCase()}_PATH, install ${name} on the PATH, or reinstall ${npmPackage}`,
  );
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}
