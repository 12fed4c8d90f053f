import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createApiClient,
  endpoints,
  MARKER_MESSAGES,
  readMarkerFile,
  REVIEW_MESSAGES,
  type Comment,
  type Marker,
  type MarkerFormat,
} from '@takes/contract';
import {
  loginByEmail,
  scratchDirs,
  startServer,
  takes,
  wavBytes,
  writeWav,
  type RunningServer,
} from './harness';
import { startTestSmtp, type TestSmtp } from '../../server/test/smtp';

let smtp: TestSmtp;
let server: RunningServer;
let configDir: string;
let workDir: string;
const scratch = scratchDirs();

/** The signed-in CLI user's API, with the token `takes login` saved. */
const client = () =>
  createApiClient({
    baseUrl: server.url,
    headers: () => ({
      authorization: `Bearer ${
        (
          JSON.parse(fs.readFileSync(path.join(configDir, 'credentials.json'), 'utf8')) as {
            accessToken: string;
          }
        ).accessToken
      }`,
    }),
  });

const run = (args: string[], dir = configDir) => takes(args, { configDir: dir });
const out = (name: string) => path.join(workDir, name);

interface Uploaded {
  version_id: string;
  project_id: string;
  branch_id: string;
}

/** A new track of `seconds` of tone, once processed (its length known to the server). */
async function uploadVersion(name: string, seconds = 12): Promise<Uploaded> {
  const form = new FormData();
  form.append('project_name', name);
  form.append('audio_file', new Blob([wavBytes(seconds)], { type: 'audio/wav' }), `${name}.wav`);
  const uploaded = (await client().call(endpoints.versions.uploadVersion, { form })) as Uploaded;
  const deadline = Date.now() + 60_000;
  for (;;) {
    const { status } = await client().call(endpoints.versions.getVersionProcessing, {
      params: { versionId: uploaded.version_id },
    });
    if (status === 'completed') return uploaded;
    if (status === 'failed' || Date.now() > deadline) throw new Error(`processing ${status}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const comment = (versionId: string, content: string, timestamp: number, end?: number) =>
  client().call(endpoints.comments.addVersionComment, {
    params: { versionId },
    body: { content, timestamp, end_timestamp: end ?? null },
  });

/** A version's own comments (no replies), by time. */
async function commentsOf(versionId: string): Promise<Comment[]> {
  const all = await client().call(endpoints.comments.listVersionComments, {
    params: { versionId },
  });
  return all
    .filter((c) => c.parent_id === null)
    .sort((a, b) => (a.timestamp ?? 0) - (b.timestamp ?? 0));
}

/** What the server answers for a version's markers. */
async function serverMarkers(versionId: string, format: MarkerFormat, resolved = false) {
  const response = await client().fetch(endpoints.markers.getVersionMarkers, {
    params: { versionId },
    query: { format, resolved: resolved ? 'include' : 'exclude' },
    headers: { accept: '*/*' },
  });
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

/** Each comment is the marker it came from: same text, times within 1 ms, a range keeps its end. */
function expectSame(comments: Comment[], markers: Marker[], withEnds = true) {
  expect(comments.map((c) => c.content)).toEqual(markers.map((m) => m.label));
  comments.forEach((c, i) => {
    const marker = markers[i] as Marker;
    expect(Math.abs((c.timestamp ?? NaN) - marker.start)).toBeLessThanOrEqual(0.001);
    if (!withEnds || marker.end === null) expect(c.end_timestamp).toBeNull();
    else expect(Math.abs((c.end_timestamp ?? NaN) - marker.end)).toBeLessThanOrEqual(0.001);
  });
}

let source: Uploaded;
let shareUrl: string;
let author: string;

beforeAll(async () => {
  smtp = await startTestSmtp();
  server = await startServer(smtp.url);
  configDir = scratch.make('config');
  workDir = scratch.make('work');
  const login = await loginByEmail(server.url, smtp, 'markers@example.com', configDir);
  expect(login.code, login.stderr).toBe(0);

  source = await uploadVersion('Night Drive');
  await comment(source.version_id, 'Intro, "too" loud', 1.5);
  await comment(source.version_id, 'Vocals drift', 3.25, 5.5);
  await comment(source.version_id, 'Snare ü', 8.001);
  const old = await comment(source.version_id, 'Old note', 9);
  await client().call(endpoints.comments.setCommentResolved, {
    params: { commentId: old.id },
    body: { resolved: true },
  });
  author = old.author;
  const link = await client().call(endpoints.sharing.createShareLink, {
    params: { versionId: source.version_id },
    body: { name: 'Listeners' },
  });
  // The API gives the link's path; people paste the address the browser shows.
  shareUrl = new URL(link.url, server.url).href;
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await smtp?.close();
  scratch.removeAll();
});

describe('takes markers', () => {
  it('writes each text format and MIDI as the server answers, the format from the extension', async () => {
    for (const [name, format] of [
      ['labels.txt', 'audacity'],
      ['markers.csv', 'reaper'],
      ['markers.mid', 'midi'],
    ] as const) {
      const result = await run(['markers', source.version_id, '-o', out(name)]);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain(`Saved ${out(name)}`);
      expect(result.stdout).toContain('3 markers');
      const written = fs.readFileSync(out(name));
      expect(written.equals(await serverMarkers(source.version_id, format))).toBe(true);
      const read = readMarkerFile(written);
      expect(read.format).toBe(format);
      expect(read.markers.map((m) => m.label)).toEqual([
        `${author}: Intro, "too" loud`,
        `${author}: Vocals drift`,
        `${author}: Snare ü`,
      ]);
    }
  });

  it('adds resolved comments with --resolved, and writes to stdout with -o -', async () => {
    const result = await run([
      'markers',
      source.version_id,
      '--format',
      'audacity',
      '--resolved',
      '-o',
      '-',
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(
      (await serverMarkers(source.version_id, 'audacity', true)).toString('utf8'),
    );
    expect(result.stdout).toContain(`9.000000\t9.000000\t${author}: Old note`);
  });

  it("names the file from the server's answer in a folder, and refuses to overwrite without --force", async () => {
    const dir = scratch.make('named');
    const first = await run(['markers', source.version_id, '--format', 'reaper', '-o', dir]);
    expect(first.code, first.stderr).toBe(0);
    expect(fs.readdirSync(dir)).toEqual(['Night Drive v1 comments.csv']);
    const file = path.join(dir, 'Night Drive v1 comments.csv');

    const again = await run(['markers', source.version_id, '--format', 'reaper', '-o', dir]);
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(`takes: ${file} already exists. Give --force to replace it.\n`);
    fs.writeFileSync(file, 'old');
    const forced = await run(['markers', source.version_id, '-o', file, '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(fs.readFileSync(file).equals(await serverMarkers(source.version_id, 'reaper'))).toBe(
      true,
    );
    expect(fs.readdirSync(dir)).toEqual(['Night Drive v1 comments.csv']);
  });

  it('writes a WAV with markers, from a version page address', async () => {
    const page = `${server.url}/projects/${source.project_id}/branches/${source.branch_id}/versions/${source.version_id}`;
    const result = await run(['markers', page, '-o', out('with-markers.wav')]);
    expect(result.code, result.stderr).toBe(0);
    const wav = fs.readFileSync(out('with-markers.wav'));
    expect(wav.subarray(0, 4).toString('latin1')).toBe('RIFF');
    expect(wav.includes(Buffer.from('cue '))).toBe(true);
    expect(wav.length).toBe((await serverMarkers(source.version_id, 'wav')).length);
  });

  it('exports through a share link without signing in; its WAV needs downloads', async () => {
    const stranger = scratch.make('stranger');
    const text = await run(['markers', shareUrl, '--format', 'reaper', '-o', '-'], stranger);
    expect(text.code, text.stderr).toBe(0);
    // A listener sees authors by name only (never part of an address): compared as it answers.
    const hash = new URL(shareUrl).pathname.split('/').pop() as string;
    const answered = await fetch(`${server.url}/api/links/hash/${hash}/markers?format=reaper`);
    expect(text.stdout).toBe(await answered.text());
    expect(text.stdout).toContain(': Vocals drift');
    const wav = await run(['markers', shareUrl, '-o', out('shared.wav')], stranger);
    expect(wav.code).toBe(1);
    expect(wav.stderr).toBe(`takes: ${MARKER_MESSAGES.wavNeedsDownload} (HTTP 403)\n`);
    expect(fs.existsSync(out('shared.wav'))).toBe(false);
  });

  it('asks for a format it cannot tell, and refuses links of another server', async () => {
    const unknown = await run(['markers', source.version_id, '-o', out('notes.doc')]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^takes: Which format\? notes\.doc does not say/);
    const elsewhere = await run([
      'markers',
      'https://elsewhere.example/projects/p/branches/b/versions/v',
      '-o',
      out('x.txt'),
    ]);
    expect(elsewhere.code).toBe(1);
    expect(elsewhere.stderr).toMatch(/^takes: That link is on https:\/\/elsewhere\.example, not/);
  });
});

describe('takes comments import', () => {
  it('round-trips an Audacity export and a REAPER export, ranges keeping their ends', async () => {
    for (const file of ['labels.txt', 'markers.csv']) {
      const exported = fs.readFileSync(out(file));
      const target = await uploadVersion(`Import ${file}`);
      const result = await run(['comments', 'import', target.version_id, out(file), '--yes']);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain('0:03.250-0:05.500');
      expect(result.stdout).toContain(`Posted 3 comments to version 1 of Import ${file}.`);
      const comments = await commentsOf(target.version_id);
      expectSame(comments, readMarkerFile(exported).markers);
      expect(comments[1]?.end_timestamp).toBeCloseTo(5.5, 3);
    }
  });

  it('imports MIDI markers as point comments at their times, team-only when asked', async () => {
    const target = await uploadVersion('Import MIDI');
    const page = `${server.url}/projects/${target.project_id}/branches/${target.branch_id}/versions/${target.version_id}`;
    const result = await run(['comments', 'import', page, out('markers.mid'), '-y', '--team-only']);
    expect(result.code, result.stderr).toBe(0);
    const comments = await commentsOf(target.version_id);
    expectSame(comments, readMarkerFile(fs.readFileSync(out('labels.txt'))).markers, false);
    expect(comments.map((c) => c.team_only)).toEqual([true, true, true]);
  });

  it('refuses a file that is no marker file, a non-terminal without --yes, and stops at a refusal', async () => {
    const target = await uploadVersion('Import refusals');
    fs.writeFileSync(out('notes.txt'), 'hello world\nnot a label track\n');
    const bad = await run(['comments', 'import', target.version_id, out('notes.txt'), '--yes']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe(`takes: ${MARKER_MESSAGES.unreadable}\n`);
    const audio = await run([
      'comments',
      'import',
      target.version_id,
      writeWav(out('audio.wav'), 1),
      '--yes',
    ]);
    expect(audio.code).toBe(1);
    expect(audio.stderr).toBe(`takes: ${MARKER_MESSAGES.unreadable}\n`);

    const link = await client().call(endpoints.sharing.createShareLink, {
      params: { versionId: target.version_id },
      body: {},
    });
    const asked = await run(['comments', 'import', link.url, out('labels.txt')]);
    expect(asked.code).toBe(1);
    expect(asked.stdout).toContain('3 comments for version 1 of Import refusals');
    expect(asked.stdout).toContain(`${author}: Vocals drift`);
    expect(asked.stderr).toMatch(/^takes: .*stdin is not a terminal.*give --yes/);
    expect(await commentsOf(target.version_id)).toEqual([]);

    fs.writeFileSync(
      out('late.txt'),
      '1.000000\t1.000000\tIn time\n100.000000\t100.000000\tLate\n',
    );
    const late = await run(['comments', 'import', target.version_id, out('late.txt'), '--yes']);
    expect(late.code).toBe(1);
    expect(late.stderr).toBe(
      `takes: Posted 1 of 2: marker 2 (1:40.000 "Late") was refused: ${REVIEW_MESSAGES.timeBeyondTrack} (HTTP 400)\n`,
    );
    expect((await commentsOf(target.version_id)).map((c) => c.content)).toEqual(['In time']);
  });
});

describe('takes pull --markers', () => {
  it('says in one line that bounces have no comments, and pulls', async () => {
    const made = await run(['repo', 'create', 'Markers Repo']);
    expect(made.code, made.stderr).toBe(0);
    const commit = await run([
      'commit',
      '--repo',
      'Markers Repo',
      '--branch',
      'main',
      '-m',
      'First',
      '--bounce',
      writeWav(out('mix.wav'), 1),
    ]);
    expect(commit.code, commit.stderr).toBe(0);
    const dir = scratch.make('pull');
    const pulled = await run(['pull', '--repo', 'Markers Repo', '--dir', dir, '--markers']);
    expect(pulled.code, pulled.stderr).toBe(0);
    expect(pulled.stderr).toContain('No marker files: bounces have no comments in Takes');
    expect(pulled.stdout).toContain('1 downloaded');
  });
});
