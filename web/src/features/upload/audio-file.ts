import { MAX_UPLOAD_BYTES, PROJECT_MESSAGES } from '@takes/contract';

const AUDIO_MIME_TYPES = new Set([
  'audio/mpeg',
  'audio/mp3',
  'audio/wav',
  'audio/x-wav',
  'audio/wave',
  'audio/aiff',
  'audio/x-aiff',
  'audio/aifc',
  'audio/x-aifc',
  'audio/flac',
  'audio/x-flac',
  'audio/aac',
  'audio/mp4',
  'audio/x-m4a',
]);
const AUDIO_EXTENSIONS = new Set(['mp3', 'wav', 'aif', 'aiff', 'aifc', 'flac', 'aac', 'm4a']);
const WARN_ABOVE_BYTES = 100 * 1024 * 1024;

export const ACCEPTED_AUDIO =
  '.mp3,.wav,.aif,.aiff,.aifc,.flac,.aac,.m4a,audio/mpeg,audio/wav,audio/aiff,audio/x-aiff,audio/flac,audio/aac,audio/mp4';

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot === -1 ? '' : name.slice(dot + 1).toLowerCase();
}

export function isAudioFile(file: Pick<File, 'name' | 'type'>): boolean {
  return (
    AUDIO_MIME_TYPES.has(file.type.toLowerCase()) || AUDIO_EXTENSIONS.has(extensionOf(file.name))
  );
}

/** Why a file may not be sent (not audio, too large), or null when it may be. */
export function audioFileProblem(file: Pick<File, 'name' | 'type' | 'size'>): string | null {
  if (!isAudioFile(file)) return PROJECT_MESSAGES.invalidType;
  if (file.size > MAX_UPLOAD_BYTES) return PROJECT_MESSAGES.tooLarge;
  if (file.size > WARN_ABOVE_BYTES) {
    console.warn(`Large upload (${Math.round(file.size / 1024 / 1024)} MB) may take a while.`);
  }
  return null;
}

/** The file name without its extension: the upload form's default project name. */
export function baseName(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
}
