import type { CollectionSummary } from '@takes/contract';
import { parseJson, storedDuration, type Renditions } from '../audio';
import { memberName, UNKNOWN_PERSON } from '../people';
import type { AlbumRow, AlbumStats, SongRow } from './subsonic.repo';

/**
 * How Takes' objects look to a Subsonic player: projects and repositories are albums (by their
 * owner, the artist), processed versions and bounces are songs, collections are playlists. Ids
 * carry their kind ('p-' project, 'r-' repository, 'v-' version, 'b-' bounce, 'a-' artist, 'c-'
 * collection) around the object's own unguessable id.
 */
export type AlbumKind = 'p' | 'r';
export type SongKind = 'v' | 'b';

export const albumId = (kind: AlbumKind, id: string) => `${kind}-${id}`;
export const artistId = (userId: string) => `a-${userId}`;
export const playlistId = (collectionId: string) => `c-${collectionId}`;

/** Splits an id into its kind and the object's id; undefined for anything else. */
export function parseId(id: string | undefined): { kind: string; id: string } | undefined {
  const match = /^([prvbac])-([A-Za-z0-9_-]{1,64})$/.exec(id ?? '');
  return match ? { kind: match[1] as string, id: match[2] as string } : undefined;
}

export interface AlbumView {
  id: string;
  name: string;
  artist: string;
  artistId: string;
  coverArt?: string;
  songCount: number;
  duration: number;
  created: string;
  playCount?: number;
  played?: string;
}

export interface SongView {
  id: string;
  parent: string;
  isDir: false;
  title: string;
  album: string;
  albumId: string;
  artist: string;
  artistId: string;
  coverArt?: string;
  track?: number;
  size?: number;
  contentType: string;
  suffix: string;
  duration: number;
  bitRate: number;
  type: 'music';
  mediaType: 'song';
  isVideo: false;
  created: string;
  playCount?: number;
}

/** An album's owner, as the team names them. */
export function ownerName(row: AlbumRow): string {
  return (
    memberName({
      display_name: row.owner_display_name,
      user_name: row.owner_user_name,
      email: row.owner_email,
    }) ?? UNKNOWN_PERSON
  );
}

/**
 * The songs an album shows: a project's default-branch versions newest first, or with
 * `latestOnly` the newest version of each branch; a repository's bounces, or the newest of each
 * branch and title.
 */
export function albumSongs(kind: AlbumKind, rows: SongRow[], latestOnly: boolean): SongRow[] {
  if (!latestOnly) return kind === 'p' ? rows.filter((row) => Number(row.is_default) === 1) : rows;
  const seen = new Set<string>();
  return rows.filter((row) => {
    const key = kind === 'p' ? row.branch_id : `${row.branch_id}\u0000${row.text ?? ''}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** 'Song — v3 (message)'; another branch's version says its branch: 'Song — mix-b v2'. */
export function songTitle(album: AlbumRow, kind: AlbumKind, song: SongRow): string {
  const branch = Number(song.is_default) === 1 ? '' : `${song.branch_name} `;
  if (kind === 'r')
    return branch ? `${song.text ?? album.name} — ${song.branch_name}` : (song.text ?? album.name);
  const message = song.text?.trim() ? ` (${song.text.trim()})` : '';
  return `${album.name} — ${branch}v${song.version_number ?? 0}${message}`;
}

/** Seconds, whole, as Subsonic counts them. */
export const durationOf = (song: SongRow) => Math.round(storedDuration(song.metadata) ?? 0);

export function songView(
  album: AlbumRow,
  kind: AlbumKind,
  song: SongRow,
  track: number | undefined,
  playCount: number | undefined,
): SongView {
  const high = parseJson<Renditions>(song.renditions, {}).high;
  const albumKey = albumId(kind, album.id);
  return {
    id: `${kind === 'p' ? 'v' : 'b'}-${song.id}`,
    parent: albumKey,
    isDir: false,
    title: songTitle(album, kind, song),
    album: album.name,
    albumId: albumKey,
    artist: ownerName(album),
    artistId: artistId(album.owner_id),
    ...(album.cover_key ? { coverArt: albumKey } : {}),
    ...(track !== undefined ? { track } : {}),
    ...(high ? { size: high.size } : {}),
    // What `stream` sends by default: the 320k MP3 rendition.
    contentType: 'audio/mpeg',
    suffix: 'mp3',
    duration: durationOf(song),
    bitRate: 320,
    type: 'music',
    mediaType: 'song',
    isVideo: false,
    created: song.created_at,
    ...(playCount ? { playCount } : {}),
  };
}

/** An album's counts from its songs, as the database counts them for the lists. */
export function statsOf(songs: SongRow[], album: AlbumRow): AlbumStats {
  return {
    count: songs.length,
    duration: songs.reduce((sum, song) => sum + durationOf(song), 0),
    newest: songs[0]?.created_at ?? album.created_at,
  };
}

export function albumView(
  album: AlbumRow,
  kind: AlbumKind,
  stats: AlbumStats | undefined,
  plays: { count: number; last: string } | undefined,
): AlbumView {
  const key = albumId(kind, album.id);
  return {
    id: key,
    name: album.name,
    artist: ownerName(album),
    artistId: artistId(album.owner_id),
    ...(album.cover_key ? { coverArt: key } : {}),
    songCount: stats?.count ?? 0,
    duration: stats?.duration ?? 0,
    // An album is as new as its newest song.
    created: stats?.newest ?? album.created_at,
    ...(plays ? { playCount: plays.count, played: plays.last } : {}),
  };
}

/** A collection as a playlist. */
export function playlistView(caller: { username: string }, collection: CollectionSummary) {
  return {
    id: playlistId(collection.id),
    name: collection.name,
    ...(collection.description ? { comment: collection.description } : {}),
    owner: collection.role === 'owner' ? caller.username : 'Takes',
    public: false,
    songCount: collection.item_count,
    duration: Math.round(collection.total_duration),
    created: collection.created_at,
    changed: collection.updated_at,
    ...(collection.cover_url ? { coverArt: playlistId(collection.id) } : {}),
  };
}

export function sortByName<T extends { name: string }>(items: T[]): T[] {
  return items.sort((a, b) => a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }));
}

/** A play's time: the player's (milliseconds since 1970) when it is sane, else now. */
export function playedAt(time: number | undefined, now: Date): string {
  if (time !== undefined && Number.isFinite(time) && time > 0 && time <= now.getTime() + 60_000)
    return new Date(time).toISOString();
  return now.toISOString();
}
