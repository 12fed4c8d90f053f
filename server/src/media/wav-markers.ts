import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import type { Marker } from '@takes/contract';
import type { MediaRunner } from './runner';

/**
 * A WAV with markers, as REAPER, Audition, WaveLab and Sound Forge read them: the audio's `fmt `
 * and `data` chunks, then a `cue ` chunk (one point per marker, at its sample) and a `LIST`
 * `adtl` chunk with a `labl` per point and an `ltxt` giving a range's length in samples (its
 * purpose 'rgn '). The audio is the original's samples for WAV and AIFF originals (little-endian
 * PCM of the same depth, or the same float), else decoded to 24-bit.
 */
export interface WavMarkersFile {
  body: Readable;
  size: number;
  /** Removes the scratch file (after the answer is sent). */
  cleanup(): Promise<void>;
}

const PCM = /^pcm_([suf])(\d+)(be|le)?$/;

/** The codec ffmpeg writes the WAV's samples with: the original's, little-endian, or 24-bit. */
export function wavCodecFor(originalFormat: string | null, codecName: string | undefined): string {
  const pcm = PCM.exec(codecName ?? '');
  if ((originalFormat === 'wav' || originalFormat === 'aiff') && pcm) {
    const [, kind, bits] = pcm;
    return bits === '8' ? 'pcm_u8' : `pcm_${kind === 'u' ? 's' : kind}${bits}le`;
  }
  return 'pcm_s24le';
}

function chunk(id: string, body: Buffer): Buffer {
  const header = Buffer.alloc(8);
  header.write(id, 0, 'ascii');
  header.writeUInt32LE(body.length, 4);
  return Buffer.concat([header, body, body.length % 2 ? Buffer.alloc(1) : Buffer.alloc(0)]);
}

/** The `cue ` and `LIST`/`adtl` chunks for markers at `sampleRate`. */
export function markerChunks(markers: readonly Marker[], sampleRate: number): Buffer {
  if (markers.length === 0) return Buffer.alloc(0);
  const sampleOf = (seconds: number) => Math.max(0, Math.round(seconds * sampleRate));
  const cue = Buffer.alloc(4 + markers.length * 24);
  cue.writeUInt32LE(markers.length, 0);
  const adtl: Buffer[] = [Buffer.from('adtl', 'ascii')];
  markers.forEach((marker, index) => {
    const id = index + 1;
    const at = 4 + index * 24;
    const sample = sampleOf(marker.start);
    cue.writeUInt32LE(id, at);
    cue.writeUInt32LE(sample, at + 4);
    cue.write('data', at + 8, 'ascii');
    cue.writeUInt32LE(0, at + 12);
    cue.writeUInt32LE(0, at + 16);
    cue.writeUInt32LE(sample, at + 20);
    const text = Buffer.from(`${marker.label}\0`, 'utf8');
    const labl = Buffer.alloc(4);
    labl.writeUInt32LE(id, 0);
    adtl.push(chunk('labl', Buffer.concat([labl, text])));
    if (marker.end !== null && marker.end > marker.start) {
      const ltxt = Buffer.alloc(20);
      ltxt.writeUInt32LE(id, 0);
      ltxt.writeUInt32LE(sampleOf(marker.end) - sample, 4);
      ltxt.write('rgn ', 8, 'ascii');
      adtl.push(chunk('ltxt', ltxt));
    }
  });
  return Buffer.concat([chunk('cue ', cue), chunk('LIST', Buffer.concat(adtl))]);
}

/** Where a RIFF file's chunks are: `fmt ` and `data`, by offset and size. */
async function findChunks(file: string) {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    const found = new Map<string, { offset: number; size: number }>();
    let offset = 12;
    const header = Buffer.alloc(8);
    while (offset + 8 <= size) {
      await handle.read(header, 0, 8, offset);
      const id = header.toString('ascii', 0, 4);
      let length = header.readUInt32LE(4);
      // ffmpeg leaves a streamed WAV's data size unset (0xFFFFFFFF): the data runs to the end.
      if (id === 'data' && (length === 0xffffffff || offset + 8 + length > size))
        length = size - offset - 8;
      found.set(id, { offset: offset + 8, size: length });
      offset += 8 + length + (length % 2);
    }
    const fmt = found.get('fmt ');
    const data = found.get('data');
    if (!fmt || !data) throw new Error('ffmpeg wrote a WAV without fmt or data');
    const fmtBody = Buffer.alloc(fmt.size);
    await handle.read(fmtBody, 0, fmt.size, fmt.offset);
    return { fmtBody, data };
  } finally {
    await handle.close();
  }
}

/**
 * Writes the WAV for an original at `input` (a local file): ffmpeg makes the samples, then the
 * answer is RIFF, `fmt `, `data` (streamed from the scratch file), `cue ` and `LIST`.
 */
export async function wavWithMarkers(
  deps: { media: MediaRunner; tmpDir: string; timeoutMs: number },
  input: { file: string; format: string | null },
  markers: readonly Marker[],
): Promise<WavMarkersFile> {
  const probe = await deps.media.ffprobe(
    [
      '-v',
      'error',
      '-select_streams',
      'a:0',
      '-show_entries',
      'stream=codec_name',
      '-of',
      'csv=p=0',
      input.file,
    ],
    { timeoutMs: deps.timeoutMs },
  );
  const codec = wavCodecFor(input.format, probe.stdout.toString('utf8').trim() || undefined);
  const scratch = path.join(deps.tmpDir, `markers-${randomUUID()}.wav`);
  const cleanup = () => rm(scratch, { force: true });
  try {
    await deps.media.ffmpeg(
      [
        '-v',
        'error',
        '-i',
        input.file,
        '-map',
        '0:a:0',
        '-map_metadata',
        '-1',
        '-c:a',
        codec,
        '-f',
        'wav',
        '-y',
        scratch,
      ],
      { timeoutMs: deps.timeoutMs },
    );
    const { fmtBody, data } = await findChunks(scratch);
    const sampleRate = fmtBody.readUInt32LE(4);
    const fmt = chunk('fmt ', fmtBody);
    const dataHeader = Buffer.alloc(8);
    dataHeader.write('data', 0, 'ascii');
    dataHeader.writeUInt32LE(data.size, 4);
    const pad = data.size % 2 ? Buffer.alloc(1) : Buffer.alloc(0);
    const tail = Buffer.concat([pad, markerChunks(markers, sampleRate)]);
    const riffSize = 4 + fmt.length + 8 + data.size + tail.length;
    const riff = Buffer.alloc(12);
    riff.write('RIFF', 0, 'ascii');
    riff.writeUInt32LE(riffSize, 4);
    riff.write('WAVE', 8, 'ascii');
    const body = new PassThrough();
    body.write(Buffer.concat([riff, fmt, dataHeader]));
    if (data.size === 0) {
      body.end(tail);
      return { body, size: 8 + riffSize, cleanup };
    }
    const samples = createReadStream(scratch, {
      start: data.offset,
      end: data.offset + data.size - 1,
    });
    samples.on('error', (error) => body.destroy(error));
    samples.on('end', () => body.end(tail));
    samples.pipe(body, { end: false });
    return { body, size: 8 + riffSize, cleanup };
  } catch (error) {
    await cleanup();
    throw error;
  }
}
