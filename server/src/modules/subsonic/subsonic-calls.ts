import type { PlayerCaller } from './player-apps.service';
import { SubsonicError } from './subsonic-errors';
import type { SubsonicBody } from './subsonic-format';
import { sortByName } from './subsonic-library';
import type { SubsonicService } from './subsonic.service';

/** A request's parameters, from the query and a form body alike. */
export interface SubsonicParams {
  get(name: string): string | undefined;
  all(name: string): string[];
}

export type SubsonicCall = (
  service: SubsonicService,
  caller: PlayerCaller,
  params: SubsonicParams,
) => Promise<SubsonicBody>;

/** The one music folder: everything the person may hear. */
const MUSIC_FOLDER = { id: 1, name: 'Takes' };

const required = (params: SubsonicParams, name: string): string => {
  const value = params.get(name);
  if (value === undefined) throw new SubsonicError(10, `Required parameter is missing: ${name}.`);
  return value;
};

/** A count parameter: a whole number in [0, max], else the default. */
const count = (params: SubsonicParams, name: string, fallback: number, max = 500): number => {
  const value = params.get(name);
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new SubsonicError(0, `${name} must be a whole number.`);
  return Math.min(n, max);
};

const ALBUM_LIST_TYPES = [
  'newest',
  'recent',
  'frequent',
  'alphabeticalByName',
  'alphabeticalByArtist',
  'random',
  'starred',
  'highest',
  'byYear',
  'byGenre',
] as const;

/**
 * The OpenSubsonic calls Takes answers, read-only. The media calls (`stream`, `download`,
 * `getCoverArt`) send bytes and live in the routes.
 */
export const SUBSONIC_CALLS: Record<string, SubsonicCall> = {
  ping: () => Promise.resolve({}),
  getLicense: () => Promise.resolve({ license: { valid: true } }),
  getMusicFolders: () => Promise.resolve({ musicFolders: { musicFolder: [MUSIC_FOLDER] } }),
  getScanStatus: () => Promise.resolve({ scanStatus: { scanning: false } }),
  getGenres: () => Promise.resolve({ genres: {} }),
  getStarred: () => Promise.resolve({ starred: {} }),
  getStarred2: () => Promise.resolve({ starred2: {} }),
  getNowPlaying: () => Promise.resolve({ nowPlaying: {} }),
  tokenInfo: (_service, caller) => Promise.resolve({ tokenInfo: { username: caller.username } }),

  getUser: (_service, caller, params) => {
    const username = params.get('username');
    if (username !== undefined && username !== caller.username)
      throw new SubsonicError(50, 'You can read only your own user.');
    return Promise.resolve({
      user: {
        username: caller.username,
        email: caller.username,
        scrobblingEnabled: true,
        adminRole: false,
        settingsRole: false,
        downloadRole: true,
        uploadRole: false,
        playlistRole: false,
        coverArtRole: false,
        commentRole: false,
        podcastRole: false,
        streamRole: true,
        jukeboxRole: false,
        shareRole: false,
        videoConversionRole: false,
        folder: [MUSIC_FOLDER.id],
      },
    });
  },

  getArtists: async (service, caller) => ({ artists: await service.artists(caller) }),
  getArtist: async (service, caller, params) => ({
    artist: await service.artist(caller, required(params, 'id')),
  }),

  getAlbum: async (service, caller, params) => {
    const album = await service.album(caller, required(params, 'id'));
    return { album: { ...album.view, song: await service.songsOf(caller, album) } };
  },

  getSong: async (service, caller, params) => ({
    song: await service.song(caller, required(params, 'id')),
  }),

  getAlbumList2: async (service, caller, params) => {
    const type = required(params, 'type');
    if (!(ALBUM_LIST_TYPES as readonly string[]).includes(type))
      throw new SubsonicError(0, `Unknown album list type: ${type}.`);
    const size = count(params, 'size', 10);
    const offset = count(params, 'offset', 0, Number.MAX_SAFE_INTEGER);
    let albums = (await service.albumViews(caller)).map((album) => album.view);
    if (type === 'newest') albums.sort((a, b) => b.created.localeCompare(a.created));
    else if (type === 'alphabeticalByName') sortByName(albums);
    else if (type === 'alphabeticalByArtist')
      albums.sort((a, b) => a.artist.localeCompare(b.artist) || a.name.localeCompare(b.name));
    else if (type === 'recent')
      albums = albums.filter((a) => a.played).sort((a, b) => b.played!.localeCompare(a.played!));
    else if (type === 'frequent')
      albums = albums
        .filter((a) => a.playCount)
        .sort((a, b) => b.playCount! - a.playCount! || a.name.localeCompare(b.name));
    else if (type === 'random') albums = shuffle(albums);
    // Takes keeps no stars, ratings, years or genres: those lists are empty.
    else albums = [];
    return { albumList2: { album: albums.slice(offset, offset + size) } };
  },

  getRandomSongs: async (service, caller, params) => {
    const size = count(params, 'size', 10);
    return { randomSongs: { song: await service.random(caller, size) } };
  },

  search3: async (service, caller, params) => {
    const page = (name: string) => ({
      count: count(params, `${name}Count`, 20),
      offset: count(params, `${name}Offset`, 0, Number.MAX_SAFE_INTEGER),
    });
    const found = await service.search(caller, required(params, 'query'), {
      artist: page('artist'),
      album: page('album'),
      song: page('song'),
    });
    return { searchResult3: found };
  },

  getPlaylists: async (service, caller, params) => {
    const username = params.get('username');
    if (username !== undefined && username !== caller.username)
      throw new SubsonicError(50, 'You can read only your own playlists.');
    return { playlists: { playlist: await service.playlists(caller) } };
  },
  getPlaylist: async (service, caller, params) => ({
    playlist: await service.playlist(caller, required(params, 'id')),
  }),

  scrobble: async (service, caller, params) => {
    const ids = params.all('id');
    if (ids.length === 0) throw new SubsonicError(10, 'Required parameter is missing: id.');
    // submission=false is a 'now playing' notice: Takes keeps none.
    if (params.get('submission') === 'false') return {};
    const times = params.all('time').map(Number);
    await service.scrobble(
      caller,
      ids,
      ids.map((_, index) => times[index]),
    );
    return {};
  },
};

function shuffle<T>(items: T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}
