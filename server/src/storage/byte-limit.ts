import { Transform } from 'node:stream';
import { ObjectTooLargeError } from './object-store';

/** Counts bytes as they pass and fails the stream once more than `maxBytes` went through. */
export class ByteCounter extends Transform {
  bytes = 0;
  constructor(private readonly maxBytes = Number.POSITIVE_INFINITY) {
    super();
  }
  override _transform(
    chunk: Buffer,
    _encoding: BufferEncoding,
    done: (error?: Error | null, data?: Buffer) => void,
  ) {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) {
      done(new ObjectTooLargeError(this.maxBytes));
      return;
    }
    done(null, chunk);
  }
}
