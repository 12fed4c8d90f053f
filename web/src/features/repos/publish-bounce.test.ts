import { afterEach, describe, expect, it, vi } from 'vitest';
import { publishBounce } from './publish-bounce';
import { bounce, stubApi } from './test-support';

/** A stand-in XMLHttpRequest that answers the PUT with the given status and body. */
function stubXhr(status: number, body = '') {
  const sent: { method: string; url: string; headers: Record<string, string>; body: unknown }[] =
    [];
  class FakeXhr {
    status = 0;
    responseText = '';
    upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null };
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    onabort: (() => void) | null = null;
    private request = { method: '', url: '', headers: {} as Record<string, string> };
    open(method: string, url: string) {
      this.request.method = method;
      this.request.url = url;
    }
    setRequestHeader(name: string, value: string) {
      this.request.headers[name] = value;
    }
    send(payload: unknown) {
      sent.push({ ...this.request, body: payload });
      this.upload.onprogress?.({ lengthComputable: true, loaded: 5, total: 10 } as ProgressEvent);
      this.status = status;
      this.responseText = body;
      setTimeout(() => (status === 0 ? this.onerror?.() : this.onload?.()), 0);
    }
  }
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  return sent;
}

const file = new File([new Uint8Array(10)], 'take.wav', { type: 'audio/wav' });
const publishAnswer = {
  status: 201,
  body: {
    upload_id: 'up1',
    upload_url: 'http://localhost/api/bounces/uploads/up1',
    upload_token: 'tok',
    expires_at: '2026-01-01T00:15:00.000Z',
    max_bytes: 500,
  },
};

afterEach(() => vi.unstubAllGlobals());

describe('publishBounce', () => {
  it('asks for an upload URL, PUTs the file with its token, then completes', async () => {
    const fetchMock = stubApi({
      '/api/bounces/publish': publishAnswer,
      '/api/bounces/complete': { status: 201, body: { bounce: bounce({ status: 'processing' }) } },
    });
    const sent = stubXhr(200, '{"upload_id":"up1","size":10}');
    const progress: number[] = [];
    const result = await publishBounce({
      repoId: 'r1',
      branch: 'main',
      file,
      onProgress: (percent) => progress.push(percent),
    });
    expect(result.status).toBe('processing');
    expect(progress).toEqual([50, 100]);
    expect(sent).toEqual([
      {
        method: 'PUT',
        url: 'http://localhost/api/bounces/uploads/up1',
        headers: { 'x-upsert-token': 'tok', 'content-type': 'application/octet-stream' },
        body: file,
      },
    ]);
    const bodies = fetchMock.mock.calls.map(
      ([, init]) => JSON.parse(init?.body as string) as unknown,
    );
    expect(bodies).toEqual([
      { repo_id: 'r1', branch: 'main', filename: 'take.wav', content_type: 'audio/wav', size: 10 },
      {
        repo_id: 'r1',
        branch: 'main',
        filename: 'take.wav',
        mime: 'audio/wav',
        size: 10,
        upload_id: 'up1',
      },
    ]);
  });

  it("fails with the server's message, or each step's fixed default", async () => {
    stubApi({ '/api/bounces/publish': { status: 500, body: {} } });
    await expect(publishBounce({ repoId: 'r1', branch: 'main', file })).rejects.toThrow(
      'publish_failed',
    );

    stubApi({ '/api/bounces/publish': publishAnswer });
    stubXhr(415, '{"error":"Please upload an audio file"}');
    await expect(publishBounce({ repoId: 'r1', branch: 'main', file })).rejects.toThrow(
      'Upload failed: Please upload an audio file',
    );
    stubXhr(0);
    await expect(publishBounce({ repoId: 'r1', branch: 'main', file })).rejects.toThrow(
      /^Upload failed$/,
    );

    stubApi({
      '/api/bounces/publish': publishAnswer,
      '/api/bounces/complete': { status: 502, body: {} },
    });
    stubXhr(200);
    await expect(publishBounce({ repoId: 'r1', branch: 'main', file })).rejects.toThrow(
      'complete_failed',
    );
  });
});
