import fc from 'fast-check';

/**
 * Broken audio for the fuzz tests: WAV files whose chunk sizes lie, and random damage to any
 * file (bit flips, truncation, another format's header, junk in front).
 */

export interface Mutated {
  name: string;
  content: Buffer;
}

/** Offsets of a RIFF/WAVE file's chunks by id (the first of each), after the 12-byte header. */
function wavChunks(wav: Buffer): Map<string, number> {
  const chunks = new Map<string, number>();
  let offset = 12;
  while (offset + 8 <= wav.length) {
    const id = wav.toString('latin1', offset, offset + 4);
    if (!chunks.has(id)) chunks.set(id, offset);
    offset += 8 + wav.readUInt32LE(offset + 4) + (wav.readUInt32LE(offset + 4) % 2);
  }
  return chunks;
}

/** A copy of `wav` with a 32-bit field (little-endian) or 16-bit field changed. */
function patched(wav: Buffer, offset: number, value: number, bytes: 2 | 4 = 4): Buffer {
  const copy = Buffer.from(wav);
  if (bytes === 4) copy.writeUInt32LE(value >>> 0, offset);
  else copy.writeUInt16LE(value, offset);
  return copy;
}

/** WAV files whose header says something the bytes do not back up. */
export function wavLies(wav: Buffer): Mutated[] {
  const chunks = wavChunks(wav);
  const fmt = chunks.get('fmt ');
  const data = chunks.get('data');
  if (fmt === undefined || data === undefined) throw new Error('not a WAV with fmt and data');
  const dataSize = wav.readUInt32LE(data + 4);
  return [
    { name: 'data bigger than the file', content: patched(wav, data + 4, dataSize + 10_000_000) },
    { name: 'data smaller than its bytes', content: patched(wav, data + 4, dataSize >> 2) },
    { name: 'data 0xFFFFFFFF', content: patched(wav, data + 4, 0xffffffff) },
    { name: 'data 0 with bytes after', content: patched(wav, data + 4, 0) },
    {
      name: 'zero-length data chunk',
      content: patched(wav.subarray(0, data + 8), data + 4, 0),
    },
    { name: 'RIFF 0xFFFFFFFF', content: patched(wav, 4, 0xffffffff) },
    { name: 'RIFF 0', content: patched(wav, 4, 0) },
    { name: 'fmt size huge', content: patched(wav, fmt + 4, 0x7fffffff) },
    { name: 'no channels', content: patched(wav, fmt + 10, 0, 2) },
    { name: 'sample rate 0', content: patched(wav, fmt + 12, 0) },
    { name: 'sample rate 4 GHz', content: patched(wav, fmt + 12, 0xffffffff) },
    { name: 'block align 0', content: patched(wav, fmt + 20, 0, 2) },
    { name: '7 bits per sample', content: patched(wav, fmt + 22, 7, 2) },
    { name: 'unknown format tag', content: patched(wav, fmt + 8, 0x1234, 2) },
  ];
}

/** Another format's first bytes, to paste over a file's own. */
const FOREIGN_HEADERS = [
  'RIFF',
  'FORM',
  'fLaC',
  'ID3\u0003',
  '\u00ff\u00fb\u0090',
  'OggS',
  '\u0000\u0000\u0000\u0000',
  '%PDF',
];

/** Random damage to `content`. */
export function mutatedAudio(content: Buffer): fc.Arbitrary<Mutated> {
  const size = content.length;
  const position = fc.oneof(
    // Headers decide most: flips in the first bytes half the time.
    fc.integer({ min: 0, max: Math.min(size - 1, 255) }),
    fc.integer({ min: 0, max: size - 1 }),
  );
  return fc.oneof(
    fc
      .array(fc.tuple(position, fc.integer({ min: 0, max: 7 })), { minLength: 1, maxLength: 32 })
      .map((flips) => {
        const copy = Buffer.from(content);
        for (const [at, bit] of flips) copy[at] = (copy[at] ?? 0) ^ (1 << bit);
        return { name: `${flips.length}-bit-flips`, content: copy };
      }),
    fc.integer({ min: 0, max: size - 1 }).map((at) => ({
      name: `cut-at-${at}`,
      content: content.subarray(0, at),
    })),
    fc.constantFrom(...FOREIGN_HEADERS).map((header) => {
      const copy = Buffer.from(content);
      copy.write(header, 0, 'latin1');
      return { name: 'foreign-header', content: copy };
    }),
    fc
      .tuple(fc.uint8Array({ minLength: 1, maxLength: 4096 }), fc.boolean())
      .map(([junk, front]) => ({
        name: front ? 'junk-in-front' : 'junk-at-the-end',
        content: front
          ? Buffer.concat([Buffer.from(junk), content])
          : Buffer.concat([content, Buffer.from(junk)]),
      })),
  );
}
