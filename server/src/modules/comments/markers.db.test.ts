import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseMidi } from 'midi-file';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WaveFile } from 'wavefile';
import { MARKER_MESSAGES, readMarkerFile, type Comment } from '@takes/contract';
import { sox } from '../../../bench/alignment-set';
import { api, uploadProcessed } from '../../../test/api';
import { addMember, buildProject, buildUser, type BuiltUser } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/test-app';

interface CuePoint {
  label: string;
  dwSampleOffset: number;
  dwSampleLength?: number;
}

// A version's comments as DAW markers, read back with libraries nobody here wrote: `wavefile`
// for the WAV's cue points and labels, `midi-file` for the marker events; the text formats
// parsed back. Access: members get markers, the WAV needs download access, a link without
// downloads gets no WAV and never a team-only comment.
describe('comments as DAW markers', () => {
  let dir: string;
  let t: TestApp;
  let owner: BuiltUser;
  let viewer: BuiltUser;
  let stranger: BuiltUser;
  let wavVersion: string;
  let mp3Version: string;
  let wavFile: string;

  const upload = (file: string, projectId: string, branchId: string) =>
    uploadProcessed(t, owner.cookie, file, { project_id: projectId, branch_id: branchId });
  const comment = async (versionId: string, body: object, user = owner) => {
    const response = await api(t, user.cookie).post(`/api/versions/${versionId}/comments`, body);
    expect(response.statusCode, response.body).toBe(201);
    return response.json<Comment>();
  };
  const markers = (versionId: string, query: string, user = owner) =>
    api(t, user.cookie).get(`/api/versions/${versionId}/markers?${query}`);

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'takes-markers-'));
    t = await createTestApp();
    owner = await buildUser(t.deps.database.db, { name: 'Olivia Owner' });
    viewer = await buildUser(t.deps.database.db, { name: 'Vic Viewer' });
    stranger = await buildUser(t.deps.database.db);
    const { project, branch } = await buildProject(t.deps.database.db, owner.id, {
      name: 'Night Drive',
    });
    await addMember(t.deps.database.db, { projectId: project.id }, viewer.id, 'viewer');
    await t.deps.jobs.startWorking();
    wavFile = path.join(dir, 'mix.wav');
    sox(
      '-n',
      '-r',
      '48000',
      '-b',
      '24',
      '-c',
      '2',
      wavFile,
      'synth',
      '5',
      'pluck',
      'A2',
      'gain',
      '-3',
    );
    const pink = path.join(dir, 'pink.wav');
    sox('-n', '-r', '44100', '-c', '2', pink, 'synth', '5', 'pinknoise', 'gain', '-12');
    const mp3 = path.join(dir, 'mix.mp3');
    execFileSync('ffmpeg', ['-v', 'error', '-i', pink, '-b:a', '192k', mp3]);
    wavVersion = await upload(wavFile, project.id, branch.id);
    // In a project of its own: no earlier version's comments are carried onto it.
    const other = await buildProject(t.deps.database.db, owner.id, { name: 'Noise Study' });
    mp3Version = await upload(mp3, other.project.id, other.branch.id);
    for (const id of [wavVersion, mp3Version]) {
      await comment(id, { content: 'Louder vocals', timestamp: 1.25 });
      const range = await comment(id, {
        content: 'Bass too boomy, here',
        timestamp: 2.5,
        end_timestamp: 3.75,
      });
      await comment(id, { content: 'Agreed', parent_id: range.id });
      await comment(id, { content: 'A general note' });
      await comment(id, { content: 'Team: check the master', timestamp: 4, team_only: true });
      const fixed = await comment(id, { content: 'Fixed already', timestamp: 0.5 });
      const resolved = await api(t, owner.cookie).patch(`/api/comments/${fixed.id}`, {
        resolved: true,
      });
      expect(resolved.statusCode).toBe(200);
    }
  }, 180_000);
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const OPEN_LABELS = [
    'Olivia Owner: Louder vocals',
    'Olivia Owner: Bass too boomy, here',
    'Olivia Owner: Team: check the master',
  ];

  it("writes a WAV of the original's own samples with cue points and labels at the comments' samples", async () => {
    const response = await markers(wavVersion, 'format=wav');
    expect(response.statusCode, response.body.slice(0, 200)).toBe(200);
    expect(response.headers['content-type']).toBe('audio/wav');
    expect(response.headers['content-disposition']).toContain('Night Drive v1 comments.wav');
    const wav = new WaveFile(response.rawPayload);
    const original = new WaveFile(fs.readFileSync(wavFile));
    const fmt = wav.fmt as { sampleRate: number; bitsPerSample: number; numChannels: number };
    expect(fmt.sampleRate).toBe(48000);
    expect(fmt.bitsPerSample).toBe(24);
    const samples = (w: WaveFile) => Buffer.from((w.data as { samples: Uint8Array }).samples);
    expect(samples(wav).equals(samples(original))).toBe(true);
    const points = wav.listCuePoints() as CuePoint[];
    expect(points.map((p) => p.label)).toEqual(OPEN_LABELS);
    expect(points.map((p) => p.dwSampleOffset)).toEqual([60000, 120000, 192000]);
    // The range comment is a region: its length in samples, exactly.
    expect(points[1]?.dwSampleLength).toBe(60000);
    expect(points[0]?.dwSampleLength ?? 0).toBe(0);
  });

  it('decodes a compressed original to 24-bit for the WAV; resolved comments on request', async () => {
    const response = await markers(mp3Version, 'format=wav&resolved=include');
    expect(response.statusCode).toBe(200);
    const wav = new WaveFile(response.rawPayload);
    const fmt = wav.fmt as { sampleRate: number; bitsPerSample: number };
    expect(fmt.bitsPerSample).toBe(24);
    const points = wav.listCuePoints() as CuePoint[];
    expect(points.map((p) => p.label)).toEqual(['Olivia Owner: Fixed already', ...OPEN_LABELS]);
    expect(points.map((p) => p.dwSampleOffset)).toEqual(
      [0.5, 1.25, 2.5, 4].map((s) => Math.round(s * fmt.sampleRate)),
    );
  });

  it("writes a MIDI file with marker events at the comments' ticks (120 BPM)", async () => {
    const response = await markers(wavVersion, 'format=midi');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toContain('.mid');
    const midi = parseMidi(response.rawPayload);
    expect(midi.header.ticksPerBeat).toBe(960);
    let tick = 0;
    const found: { tick: number; text: string }[] = [];
    let tempo = 0;
    for (const event of midi.tracks[0] ?? []) {
      tick += event.deltaTime;
      if (event.type === 'setTempo') tempo = event.microsecondsPerBeat;
      if (event.type === 'marker') found.push({ tick, text: event.text });
    }
    expect(tempo).toBe(500_000);
    const secondsPerTick = tempo / 1e6 / 960;
    expect(found.map((m) => m.text)).toEqual(OPEN_LABELS);
    [1.25, 2.5, 4].forEach((seconds, index) =>
      expect(Math.abs((found[index]?.tick ?? -1) * secondsPerTick - seconds)).toBeLessThanOrEqual(
        secondsPerTick,
      ),
    );
  });

  it('writes a REAPER marker CSV and an Audacity label track that read back', async () => {
    const csv = await markers(wavVersion, 'format=reaper');
    expect(csv.statusCode).toBe(200);
    const lines = csv.body.trim().split('\n');
    expect(lines[0]).toBe('#,Name,Start,End,Length');
    expect(lines[1]).toBe('M1,Olivia Owner: Louder vocals,0:01.250,,');
    expect(lines[2]).toBe('R1,"Olivia Owner: Bass too boomy, here",0:02.500,0:03.750,0:01.250');
    const labels = await markers(wavVersion, 'format=audacity');
    expect(labels.body.split('\n')[1]).toBe(
      '2.500000\t3.750000\tOlivia Owner: Bass too boomy, here',
    );
    for (const file of [csv, labels]) {
      const read = readMarkerFile(file.rawPayload);
      expect(read.markers.map((m) => [m.start, m.end, m.label])).toEqual([
        [1.25, null, OPEN_LABELS[0]],
        [2.5, 3.75, OPEN_LABELS[1]],
        [4, null, OPEN_LABELS[2]],
      ]);
    }
  });

  it('gives members their markers and strangers nothing; links show theirs, the WAV only with downloads', async () => {
    expect((await markers(wavVersion, 'format=midi', viewer)).statusCode).toBe(200);
    expect((await markers(wavVersion, 'format=wav', viewer)).statusCode).toBe(200);
    expect((await markers(wavVersion, 'format=reaper', stranger)).statusCode).toBe(404);
    expect((await markers(wavVersion, 'format=mp4')).statusCode).toBe(400);
    const link = async (download: boolean) => {
      const response = await api(t, owner.cookie).post(`/api/versions/${wavVersion}/links`, {
        download_enabled: download,
      });
      expect(response.statusCode, response.body).toBe(201);
      return response.json<{ hash: string }>().hash;
    };
    const without = await link(false);
    const through = (hash: string, query: string) =>
      t.app.inject({ method: 'GET', url: `/api/links/hash/${hash}/markers?${query}` });
    const refused = await through(without, 'format=wav');
    expect(refused.statusCode).toBe(403);
    expect(refused.json<{ error: string }>().error).toBe(MARKER_MESSAGES.wavNeedsDownload);
    const text = await through(without, 'format=audacity');
    expect(text.statusCode).toBe(200);
    // A link never shows a team-only comment.
    expect(text.body).not.toContain('check the master');
    expect(text.body).toContain('Louder vocals');
    const withDownloads = await link(true);
    const wav = await through(withDownloads, 'format=wav');
    expect(wav.statusCode).toBe(200);
    expect((new WaveFile(wav.rawPayload).listCuePoints() as CuePoint[]).length).toBe(2);
    expect((await through('no-such-link', 'format=midi')).statusCode).toBe(404);
  });
});
