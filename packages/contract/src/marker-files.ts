// Comments as DAW markers, without schemas: the formats, their words, and the text and MIDI
// marker files written and read back (`takes markers`, `takes comments import`, the comment
// panel's drop). The WAV with `cue ` and `LIST`/`adtl` chunks is written by the server.

export const MARKER_FORMATS = ['wav', 'midi', 'reaper', 'audacity'] as const;
export type MarkerFormat = (typeof MARKER_FORMATS)[number];

export const MARKER_FORMAT_LABELS: Record<MarkerFormat, string> = {
  wav: 'WAV with markers',
  midi: 'MIDI markers (Logic, Cubase, Pro Tools)',
  reaper: 'REAPER marker CSV',
  audacity: 'Audacity label track',
};
export const MARKER_EXTENSIONS: Record<MarkerFormat, string> = {
  wav: 'wav',
  midi: 'mid',
  reaper: 'csv',
  audacity: 'txt',
};
export const MARKER_CONTENT_TYPES: Record<MarkerFormat, string> = {
  wav: 'audio/wav',
  midi: 'audio/midi',
  reaper: 'text/csv; charset=utf-8',
  audacity: 'text/plain; charset=utf-8',
};

export const MARKER_WORDS = {
  exportComments: 'Export comments…',
  includeResolved: 'Include resolved',
  format: 'Format',
} as const;

export const MARKER_MESSAGES = {
  unreadable:
    'This file is not a marker file Takes can read: use an Audacity label track, a REAPER marker CSV or a MIDI file with markers.',
  empty: 'This file has no markers.',
  tooMany: 'A marker file can add at most 500 comments at once.',
  wavNeedsDownload: 'A WAV with markers holds the audio: it needs download access.',
} as const;

/** At most this many comments come from one imported file. */
export const MARKER_IMPORT_MAX = 500;

/** One marker: a time, or a range with its end, and its label. */
export interface Marker {
  start: number;
  end: number | null;
  label: string;
}

/** 120 BPM at 960 ticks a quarter note: one tick is 1/1920 s, so times land exactly on ticks. */
export const MIDI_TICKS_PER_QUARTER = 960;
export const MIDI_TICKS_PER_SECOND = 1920;
const MIDI_TEMPO_US = 500_000;

/** A label on one line (DAWs show one), without the tab and line breaks the formats use. */
export function oneLine(text: string): string {
  return text.replace(/[\t\r\n]+/g, ' ').trim();
}

/** Seconds as REAPER writes them: h:mm:ss.mmm or m:ss.mmm. */
function reaperTime(seconds: number): string {
  const ms = Math.round(seconds * 1000);
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = ((ms % 60_000) / 1000).toFixed(3).padStart(6, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

const csvField = (text: string) => (/[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);

/** REAPER's Region/Marker Manager CSV: `#,Name,Start,End,Length`, M1… markers and R1… regions. */
export function reaperCsv(markers: readonly Marker[]): string {
  let m = 0;
  let r = 0;
  const rows = markers.map((marker) => {
    const name = csvField(oneLine(marker.label));
    if (marker.end === null) return `M${++m},${name},${reaperTime(marker.start)},,`;
    return `R${++r},${name},${reaperTime(marker.start)},${reaperTime(marker.end)},${reaperTime(marker.end - marker.start)}`;
  });
  return ['#,Name,Start,End,Length', ...rows].join('\n') + '\n';
}

/** Audacity's label track: start, end and label separated by tabs (a point has end = start). */
export function audacityLabels(markers: readonly Marker[]): string {
  return markers
    .map((marker) =>
      [
        marker.start.toFixed(6),
        (marker.end ?? marker.start).toFixed(6),
        oneLine(marker.label),
      ].join('\t'),
    )
    .join('\n')
    .concat(markers.length ? '\n' : '');
}

function variableLength(value: number): number[] {
  const bytes = [value & 0x7f];
  for (let v = value >>> 7; v > 0; v >>>= 7) bytes.unshift((v & 0x7f) | 0x80);
  return bytes;
}

/**
 * A Standard MIDI File (format 0) with a 120 BPM tempo and one marker meta event (FF 06) at each
 * marker's start (a range's end has no place in MIDI markers).
 */
export function midiMarkers(markers: readonly Marker[]): Uint8Array {
  const encoder = new TextEncoder();
  const events: number[] = [
    0x00,
    0xff,
    0x51,
    0x03,
    (MIDI_TEMPO_US >> 16) & 0xff,
    (MIDI_TEMPO_US >> 8) & 0xff,
    MIDI_TEMPO_US & 0xff,
  ];
  let at = 0;
  const sorted = [...markers].sort((a, b) => a.start - b.start);
  for (const marker of sorted) {
    const tick = Math.round(marker.start * MIDI_TICKS_PER_SECOND);
    const text = encoder.encode(oneLine(marker.label));
    events.push(...variableLength(tick - at), 0xff, 0x06, ...variableLength(text.length), ...text);
    at = tick;
  }
  events.push(0x00, 0xff, 0x2f, 0x00);
  const length = events.length;
  return new Uint8Array([
    ...[0x4d, 0x54, 0x68, 0x64, 0, 0, 0, 6, 0, 0, 0, 1],
    (MIDI_TICKS_PER_QUARTER >> 8) & 0xff,
    MIDI_TICKS_PER_QUARTER & 0xff,
    ...[0x4d, 0x54, 0x72, 0x6b],
    (length >>> 24) & 0xff,
    (length >>> 16) & 0xff,
    (length >>> 8) & 0xff,
    length & 0xff,
    ...events,
  ]);
}

export class MarkerFileError extends Error {
  override name = 'MarkerFileError';
}

/** REAPER and Audacity times: seconds, or [h:]m:ss.sss. */
function parseTime(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const parts = trimmed.split(':');
  if (parts.length > 3 || parts.some((part) => !/^\d+(\.\d+)?$/.test(part))) return NaN;
  return parts.reduce((sum, part) => sum * 60 + Number(part), 0);
}

function csvRows(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const endRow = () => {
    row.push(field);
    rows.push(row);
    row = [];
    field = '';
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      endRow();
    } else field += c;
  }
  if (field !== '' || row.length) endRow();
  return rows.filter((r) => r.some((f) => f.trim() !== ''));
}

function parseReaper(text: string): Marker[] {
  const [header, ...rows] = csvRows(text);
  if (!header || header[0]?.trim() !== '#' || header[1]?.trim() !== 'Name')
    throw new MarkerFileError('no REAPER header');
  return rows.map((row) => {
    const start = parseTime(row[2] ?? '');
    const end = parseTime(row[3] ?? '');
    if (start === null || Number.isNaN(start) || Number.isNaN(end))
      throw new MarkerFileError('bad time');
    return { start, end: end !== null && end > start ? end : null, label: row[1] ?? '' };
  });
}

function parseAudacity(text: string): Marker[] {
  const markers: Marker[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '') continue;
    // Audacity writes a spectral label's frequencies on a line of its own starting with '\'.
    if (line.startsWith('\\')) continue;
    const [startText, endText, ...label] = line.split('\t');
    const start = parseTime(startText ?? '');
    const end = parseTime(endText ?? '');
    if (start === null || end === null || Number.isNaN(start) || Number.isNaN(end) || !label.length)
      throw new MarkerFileError('not a label line');
    markers.push({ start, end: end > start ? end : null, label: label.join('\t') });
  }
  return markers;
}

function parseMidi(bytes: Uint8Array): Marker[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const decoder = new TextDecoder();
  if (view.getUint32(0) !== 0x4d546864) throw new MarkerFileError('no MThd');
  const headerLength = view.getUint32(4);
  const tracks = view.getUint16(10);
  const division = view.getUint16(12);
  if (division & 0x8000) throw new MarkerFileError('SMPTE time is not read');
  const found: { tick: number; text: string }[] = [];
  const tempos: { tick: number; us: number }[] = [];
  let offset = 8 + headerLength;
  for (let t = 0; t < tracks && offset + 8 <= bytes.length; t++) {
    if (view.getUint32(offset) !== 0x4d54726b) throw new MarkerFileError('no MTrk');
    const end = offset + 8 + view.getUint32(offset + 4);
    let at = offset + 8;
    let tick = 0;
    let status = 0;
    const readVariable = () => {
      let value = 0;
      for (let i = 0; i < 4; i++) {
        const byte = bytes[at++] as number;
        value = (value << 7) | (byte & 0x7f);
        if (!(byte & 0x80)) break;
      }
      return value;
    };
    while (at < end) {
      tick += readVariable();
      let byte = bytes[at] as number;
      if (byte & 0x80) at++;
      else byte = status;
      if (byte === 0xff) {
        const type = bytes[at++] as number;
        const length = readVariable();
        const data = bytes.subarray(at, at + length);
        if (type === 0x06 || type === 0x07) found.push({ tick, text: decoder.decode(data) });
        if (type === 0x51 && length === 3)
          tempos.push({
            tick,
            us: ((data[0] as number) << 16) | ((data[1] as number) << 8) | (data[2] as number),
          });
        at += length;
      } else if (byte === 0xf0 || byte === 0xf7) {
        at += readVariable();
      } else {
        status = byte;
        const kind = byte & 0xf0;
        at += kind === 0xc0 || kind === 0xd0 ? 1 : 2;
      }
    }
    offset = end;
  }
  tempos.sort((a, b) => a.tick - b.tick);
  const seconds = (tick: number) => {
    let time = 0;
    let lastTick = 0;
    let us = MIDI_TEMPO_US;
    for (const tempo of tempos) {
      if (tempo.tick >= tick) break;
      time += ((tempo.tick - lastTick) * us) / division / 1e6;
      lastTick = tempo.tick;
      us = tempo.us;
    }
    return time + ((tick - lastTick) * us) / division / 1e6;
  };
  return found.map((marker) => ({ start: seconds(marker.tick), end: null, label: marker.text }));
}

/**
 * Reads a marker file by its content (never its name): a MIDI file with marker or cue-point
 * events, a REAPER marker CSV, or an Audacity label track. Throws MarkerFileError with the
 * message for people when it is none of them, has no markers, or has too many.
 */
export function readMarkerFile(bytes: Uint8Array): { format: MarkerFormat; markers: Marker[] } {
  let read: { format: MarkerFormat; markers: Marker[] } | undefined;
  try {
    if (bytes.length >= 14 && new TextDecoder().decode(bytes.subarray(0, 4)) === 'MThd')
      read = { format: 'midi', markers: parseMidi(bytes) };
    else {
      const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
      read = /^\s*#\s*,\s*Name\s*,/i.test(text)
        ? { format: 'reaper', markers: parseReaper(text) }
        : { format: 'audacity', markers: parseAudacity(text) };
    }
  } catch {
    throw new MarkerFileError(MARKER_MESSAGES.unreadable);
  }
  const markers = read.markers
    .map((marker) => ({ ...marker, label: oneLine(marker.label) }))
    .filter((marker) => marker.label !== '');
  if (markers.length === 0) throw new MarkerFileError(MARKER_MESSAGES.empty);
  if (markers.length > MARKER_IMPORT_MAX) throw new MarkerFileError(MARKER_MESSAGES.tooMany);
  return { format: read.format, markers };
}
