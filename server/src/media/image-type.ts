import { Transform, type TransformCallback } from 'node:stream';

export type ImageType = {
  ext: 'png' | 'jpg' | 'webp';
  mime: 'image/png' | 'image/jpeg' | 'image/webp';
};

/** Recognises PNG, JPEG and WebP by their first bytes, never by name or declared type. */
export function sniffImage(head: Buffer): ImageType | undefined {
  if (
    head.length >= 8 &&
    head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  ) {
    return { ext: 'png', mime: 'image/png' };
  }
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff)
    return { ext: 'jpg', mime: 'image/jpeg' };
  if (
    head.length >= 12 &&
    head.toString('latin1', 0, 4) === 'RIFF' &&
    head.toString('latin1', 8, 12) === 'WEBP'
  ) {
    return { ext: 'webp', mime: 'image/webp' };
  }
  return undefined;
}

export class UnsupportedImageError extends Error {
  override name = 'UnsupportedImageError';
}

/** Passes bytes through once the first 12 prove an image; otherwise fails the stream. */
export class ImageSniffer extends Transform {
  type: ImageType | undefined;
  private head = Buffer.alloc(0);

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    if (this.type) return done(null, chunk);
    this.head = Buffer.concat([this.head, chunk]);
    if (this.head.length < 12) return done();
    this.type = sniffImage(this.head);
    if (!this.type) return done(new UnsupportedImageError('Not a PNG, JPEG or WebP image'));
    const all = this.head;
    this.head = Buffer.alloc(0);
    done(null, all);
  }

  override _flush(done: TransformCallback): void {
    if (this.type) return done();
    this.type = sniffImage(this.head);
    if (!this.type) return done(new UnsupportedImageError('Not a PNG, JPEG or WebP image'));
    done(null, this.head);
  }
}
