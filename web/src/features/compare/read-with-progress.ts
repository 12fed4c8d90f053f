/** The response's bytes, telling `onProgress` the share fetched as chunks arrive. */
export async function readWithProgress(
  response: Response,
  onProgress: ((fetched: number) => void) | undefined,
): Promise<ArrayBuffer> {
  const total = Number(response.headers.get('content-length'));
  if (!onProgress || !response.body || !Number.isFinite(total) || total <= 0)
    return response.arrayBuffer();
  const reader = response.body.getReader();
  const data = new Uint8Array(total);
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (received + value.length > data.length) {
      // More than announced (a compressed or changed body): fall back to collecting it all.
      const grown = new Uint8Array(received + value.length);
      grown.set(data.subarray(0, received));
      grown.set(value, received);
      return finishUnsized(reader, grown);
    }
    data.set(value, received);
    received += value.length;
    onProgress(Math.min(0.99, received / total));
  }
  return data.buffer.slice(0, received);
}

async function finishUnsized(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  start: Uint8Array,
): Promise<ArrayBuffer> {
  const chunks = [start];
  let size = start.length;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.length;
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out.buffer;
}
