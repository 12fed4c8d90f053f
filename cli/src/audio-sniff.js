// @ts-check
import fsp from 'node:fs/promises';
import { ACCEPTED_AUDIO_KINDS, AUDIO_MIME, sniffAudioSource } from '@takes/contract/runtime';

// What kind of audio a file is by its first bytes, decided by the same code as the server's
// intake (in the contract): `takes watch` refuses what the server would before making a commit
// for it. Names and extensions are ignored. The server still probes what it receives; this only
// keeps files it would refuse at once from being sent.

/** @typedef {import('@takes/contract').AudioFormat} AudioFormat */

export { AUDIO_MIME };

/** The kinds the server takes, for messages. */
export const ACCEPTED_KINDS = ACCEPTED_AUDIO_KINDS;

/**
 * The audio container a file's content announces, or undefined (not audio the server takes).
 * @param {string} file
 * @returns {Promise<AudioFormat | undefined>}
 */
export async function sniffAudioFile(file) {
  const handle = await fsp.open(file, 'r');
  try {
    return await sniffAudioSource(async (start, length) => {
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buffer, 0, length, start);
      return buffer.subarray(0, bytesRead);
    });
  } finally {
    await handle.close();
  }
}
