import type { PlayerCaller } from './player-apps.service';
import type { SubsonicSearchRepo } from './subsonic-search.repo';
import { songView, sortByName, type AlbumKind, type AlbumView } from './subsonic-library';
import type { AlbumRow, SongRow, SubsonicRepo } from './subsonic.repo';

/** What a search needs of the library (the service, by shape). */
interface Library {
  albumViews(caller: PlayerCaller): Promise<{ kind: AlbumKind; row: AlbumRow; view: AlbumView }[]>;
  artists(
    caller: PlayerCaller,
    known?: { row: AlbumRow }[],
  ): Promise<{ index: { artist: { id: string; name: string; albumCount: number }[] }[] }>;
}

export type SearchPart = 'artist' | 'album' | 'song';
export interface Page {
  count: number;
  offset: number;
}

/**
 * Artists, albums and songs whose names hold every word of the query ('' finds everything, as
 * players that copy the library ask), a page of each. Songs are found by the database: the
 * projects' versions first, then the repositories' bounces, newest first.
 */
export async function searchLibrary(
  deps: {
    library: Library;
    search: SubsonicSearchRepo;
    plays: Pick<SubsonicRepo, 'playsBySong'>;
  },
  caller: PlayerCaller,
  query: string,
  pages: Record<SearchPart, Page>,
) {
  const words = query.replace(/["*]/g, ' ').toLowerCase().split(/\s+/).filter(Boolean);
  const matches = (text: string) => words.every((word) => text.toLowerCase().includes(word));
  const slice = <T>(items: T[], page: Page) => items.slice(page.offset, page.offset + page.count);
  const albums = await deps.library.albumViews(caller);
  const artists = await deps.library.artists(caller, albums);
  const song = pages.song;
  const search = { words, latestOnly: caller.latestOnly };
  const versions = await deps.search.searchVersions(caller.userId, {
    ...search,
    limit: song.count,
    offset: song.offset,
  });
  let bounces: SongRow[] = [];
  if (versions.total !== undefined && versions.rows.length < song.count)
    bounces = (
      await deps.search.searchBounces(caller.userId, {
        ...search,
        limit: song.count - versions.rows.length,
        offset: Math.max(0, song.offset - versions.total),
      })
    ).rows;
  const byId = new Map(albums.map((album) => [`${album.kind}-${album.row.id}`, album]));
  const plays = await deps.plays.playsBySong(caller.userId);
  const view = (kind: AlbumKind) => (row: SongRow) => {
    const album = byId.get(`${kind}-${row.album_id}`);
    return album ? [songView(album.row, kind, row, undefined, plays.get(row.id))] : [];
  };
  return {
    artist: slice(
      artists.index.flatMap((letter) => letter.artist).filter((a) => matches(a.name)),
      pages.artist,
    ),
    album: slice(
      sortByName(albums.map((album) => album.view).filter((a) => matches(a.name))),
      pages.album,
    ),
    song: [...versions.rows.flatMap(view('p')), ...bounces.flatMap(view('r'))],
  };
}

/** `size` songs at random from everything the albums show, picked by the database. */
export async function randomSongs(
  deps: {
    library: Library;
    search: SubsonicSearchRepo;
    plays: Pick<SubsonicRepo, 'playsBySong'>;
  },
  caller: PlayerCaller,
  size: number,
) {
  const search = { words: [], latestOnly: caller.latestOnly, limit: size, offset: 0, random: true };
  const [albums, versions, bounces, plays] = await Promise.all([
    deps.library.albumViews(caller),
    deps.search.searchVersions(caller.userId, search),
    deps.search.searchBounces(caller.userId, search),
    deps.plays.playsBySong(caller.userId),
  ]);
  const byId = new Map(albums.map((album) => [`${album.kind}-${album.row.id}`, album]));
  const view = (kind: AlbumKind) => (row: SongRow) => {
    const album = byId.get(`${kind}-${row.album_id}`);
    return album ? [songView(album.row, kind, row, undefined, plays.get(row.id))] : [];
  };
  const songs = [...versions.rows.flatMap(view('p')), ...bounces.rows.flatMap(view('r'))];
  for (let i = songs.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [songs[i], songs[j]] = [songs[j] as (typeof songs)[number], songs[i] as (typeof songs)[number]];
  }
  return songs.slice(0, size);
}
