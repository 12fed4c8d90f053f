import { randomUUID } from 'node:crypto';
import type { Collection, CollectionSummary } from '@takes/contract';
import type { Clock } from '../../clock';
import { AppError } from '../../errors';
import type { AccessPolicy } from '../access';
import type { ActivityLog } from '../activity';
import type { Quality, StoredAudio } from '../audio';
import type { PlayerAppsRepo } from './player-apps.repo';
import type { PlayerCaller } from './player-apps.service';
import { SubsonicError, notFound } from './subsonic-errors';
import {
  albumSongs,
  albumView,
  artistId,
  ownerName,
  parseId,
  playedAt,
  playlistView,
  songView,
  sortByName,
  statsOf,
  type AlbumKind,
  type AlbumView,
  type SongView,
} from './subsonic-library';
import type { AlbumRow, SongRow, SubsonicRepo } from './subsonic.repo';
import { randomSongs, searchLibrary, type Page, type SearchPart } from './subsonic-search';
import type { SubsonicSearchRepo } from './subsonic-search.repo';

/** What the service needs of the collections module (its service, by shape). */
export interface CollectionsReader {
  list(userId: string): Promise<{ collections: CollectionSummary[] }>;
  get(userId: string, collectionId: string): Promise<Collection>;
  cover(userId: string, collectionId: string): Promise<{ key: string; contentType: string }>;
}

export interface SubsonicDeps {
  access: AccessPolicy;
  repo: SubsonicRepo;
  search: SubsonicSearchRepo;
  plays: PlayerAppsRepo;
  activity: ActivityLog;
  clock: Clock;
  collections: CollectionsReader;
  versions: {
    audio(userId: string, versionId: string, quality: Quality): Promise<StoredAudio>;
    download(userId: string, versionId: string): Promise<StoredAudio & { fileName: string }>;
  };
  bounces: {
    bounceAudio(userId: string, repoId: string, bounceId: string, q: Quality): Promise<StoredAudio>;
  };
}

/** One album with its songs as the caller's key shows them. */
interface Album {
  kind: AlbumKind;
  row: AlbumRow;
  songs: SongRow[];
  view: AlbumView;
}

/** A second play of the same song by the same person within this time is not news again. */
const LISTENED_QUIET_MS = 30 * 60_000;

/** Turns the policy's refusals (404 and 403 alike) into Subsonic's 'not found'. */
async function orNotFound<T>(what: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AppError && (error.kind === 'not_found' || error.kind === 'forbidden'))
      throw notFound(what);
    throw error;
  }
}

/**
 * The library a player app sees (read-only, per person, through the access policy): every
 * answer is built from what the caller may read now, so a removed member's next request no
 * longer sees the project, and any id they cannot read answers error 70 like a missing one.
 */
export class SubsonicService {
  constructor(private readonly deps: SubsonicDeps) {}

  /** Every album the caller may listen to, with the songs their key shows. */
  async albums(caller: PlayerCaller, only?: { kind: AlbumKind; id: string }): Promise<Album[]> {
    const { repo } = this.deps;
    const wantProjects = !only || only.kind === 'p';
    const wantRepos = !only || only.kind === 'r';
    const [projects, versions, repos, bounces, plays] = await Promise.all([
      wantProjects ? repo.projectAlbums(caller.userId, only?.id) : [],
      wantProjects ? repo.versionSongs(caller.userId, only?.id) : [],
      wantRepos ? repo.repoAlbums(caller.userId, only?.id) : [],
      wantRepos ? repo.bounceSongs(caller.userId, only?.id) : [],
      repo.playsByAlbum(caller.userId),
    ]);
    const build = (kind: AlbumKind, rows: AlbumRow[], songs: SongRow[]): Album[] => {
      const byAlbum = new Map<string, SongRow[]>();
      for (const song of songs) {
        const list = byAlbum.get(song.album_id);
        if (list) list.push(song);
        else byAlbum.set(song.album_id, [song]);
      }
      return rows.map((row) => {
        const shown = albumSongs(kind, byAlbum.get(row.id) ?? [], caller.latestOnly);
        const view = albumView(row, kind, statsOf(shown, row), plays.get(row.id));
        return { kind, row, songs: shown, view };
      });
    };
    return [...build('p', projects, versions), ...build('r', repos, bounces)];
  }

  /**
   * Every album the caller may hear, without its songs: the lists' view, counted by the
   * database (a big account's 10,000 versions are never read for a list).
   */
  async albumViews(
    caller: PlayerCaller,
  ): Promise<{ kind: AlbumKind; row: AlbumRow; view: AlbumView }[]> {
    const { repo } = this.deps;
    const [projects, repos, projectStats, repoStats, plays] = await Promise.all([
      repo.projectAlbums(caller.userId),
      repo.repoAlbums(caller.userId),
      repo.projectStats(caller.userId, caller.latestOnly),
      repo.repoStats(caller.userId, caller.latestOnly),
      repo.playsByAlbum(caller.userId),
    ]);
    return [
      ...projects.map((row) => ({
        kind: 'p' as const,
        row,
        view: albumView(row, 'p', projectStats.get(row.id), plays.get(row.id)),
      })),
      ...repos.map((row) => ({
        kind: 'r' as const,
        row,
        view: albumView(row, 'r', repoStats.get(row.id), plays.get(row.id)),
      })),
    ];
  }

  /** One album by its id, or error 70. */
  async album(caller: PlayerCaller, id: string | undefined): Promise<Album> {
    const parsed = parseId(id);
    if (!parsed || (parsed.kind !== 'p' && parsed.kind !== 'r')) throw notFound('Album');
    const [album] = await this.albums(caller, { kind: parsed.kind, id: parsed.id });
    if (!album) throw notFound('Album');
    return album;
  }

  async songsOf(caller: PlayerCaller, album: Album): Promise<SongView[]> {
    const plays = await this.deps.repo.playsBySong(caller.userId);
    return album.songs.map((song, index) =>
      songView(album.row, album.kind, song, index + 1, plays.get(song.id)),
    );
  }

  /** The albums of one owner ('a-<user id>'), or error 70 when the caller sees none of theirs. */
  async artist(caller: PlayerCaller, id: string | undefined) {
    const parsed = parseId(id);
    if (!parsed || parsed.kind !== 'a') throw notFound('Artist');
    const albums = (await this.albumViews(caller)).filter(
      (album) => album.row.owner_id === parsed.id,
    );
    const first = albums[0];
    if (!first) throw notFound('Artist');
    return {
      id: artistId(parsed.id),
      name: ownerName(first.row),
      albumCount: albums.length,
      album: sortByName(albums.map((album) => album.view)),
    };
  }

  /** The owners of everything the caller may hear, indexed by their first letter. */
  async artists(caller: PlayerCaller, known?: { row: AlbumRow }[]) {
    const byOwner = new Map<string, { id: string; name: string; albumCount: number }>();
    for (const album of known ?? (await this.albumViews(caller))) {
      const seen = byOwner.get(album.row.owner_id);
      if (seen) seen.albumCount++;
      else
        byOwner.set(album.row.owner_id, {
          id: artistId(album.row.owner_id),
          name: ownerName(album.row),
          albumCount: 1,
        });
    }
    const index = new Map<string, { id: string; name: string; albumCount: number }[]>();
    for (const artist of sortByName([...byOwner.values()])) {
      const letter = /^[a-z]/i.test(artist.name) ? (artist.name[0] as string).toUpperCase() : '#';
      index.set(letter, [...(index.get(letter) ?? []), artist]);
    }
    return {
      ignoredArticles: '',
      index: [...index].map(([name, artist]) => ({ name, artist })),
    };
  }

  /** A song ('v-…' a version, 'b-…' a bounce) the caller may hear now, or error 70. */
  async song(caller: PlayerCaller, id: string | undefined): Promise<SongView> {
    const { kind, objectId, albumKey } = await this.locate(caller, id);
    const album = await this.album(caller, albumKey);
    const index = album.songs.findIndex((song) => song.id === objectId);
    const plays = await this.deps.repo.playsBySong(caller.userId);
    if (index >= 0) {
      const song = album.songs[index] as SongRow;
      return songView(album.row, album.kind, song, index + 1, plays.get(song.id));
    }
    // A song the key's album view leaves out (an older version, another branch) still plays.
    const rows = await (kind === 'v'
      ? this.deps.repo.versionSongs(caller.userId, album.row.id)
      : this.deps.repo.bounceSongs(caller.userId, album.row.id));
    const row = rows.find((song) => song.id === objectId);
    if (!row) throw notFound('Song');
    return songView(album.row, album.kind, row, rows.indexOf(row) + 1, plays.get(row.id));
  }

  /** Checks the caller may listen to a song's object; answers its kind, id and album. */
  private async locate(caller: PlayerCaller, id: string | undefined) {
    const parsed = parseId(id);
    if (!parsed || (parsed.kind !== 'v' && parsed.kind !== 'b')) throw notFound('Song');
    if (parsed.kind === 'v') {
      const grant = await orNotFound('Song', () =>
        this.deps.access.version(caller.userId, parsed.id, 'listen'),
      );
      return { kind: 'v' as const, objectId: parsed.id, albumKey: `p-${grant.projectId}` };
    }
    const grant = await orNotFound('Song', () =>
      this.deps.access.bounce(caller.userId, parsed.id, 'listen'),
    );
    return { kind: 'b' as const, objectId: parsed.id, albumKey: `r-${grant.repoId}` };
  }

  /**
   * What `stream` and `download` send: the 320k rendition, the 128k one when the player asks
   * for at most 128 kbit/s, and the original (`format=raw`, `download`) only to people who may
   * download (error 50 otherwise).
   */
  async audio(
    caller: PlayerCaller,
    id: string | undefined,
    want: 'high' | 'standard' | 'original',
  ): Promise<StoredAudio & { fileName?: string }> {
    const { kind, objectId, albumKey } = await this.locate(caller, id);
    if (want === 'original') {
      const allowed = await (
        kind === 'v'
          ? this.deps.access.version(caller.userId, objectId, 'download')
          : this.deps.access.bounce(caller.userId, objectId, 'download')
      ).then(
        () => true,
        () => false,
      );
      if (!allowed)
        throw new SubsonicError(50, 'You need download access to get the original file.');
    }
    return orNotFound('Song', () =>
      kind === 'v'
        ? want === 'original'
          ? this.deps.versions.download(caller.userId, objectId)
          : this.deps.versions.audio(caller.userId, objectId, want)
        : this.deps.bounces.bounceAudio(caller.userId, albumKey.slice(2), objectId, want),
    );
  }

  /**
   * A finished play: counted for the person's 'frequent' and 'recent' lists, and in the
   * project's or repository's Activity as listened on a device (once per half hour per song).
   */
  async scrobble(caller: PlayerCaller, ids: string[], times: (number | undefined)[]) {
    const located: Awaited<ReturnType<SubsonicService['locate']>>[] = [];
    for (const id of ids) located.push(await this.locate(caller, id));
    const now = this.deps.clock.now();
    await this.deps.plays.transaction(async (trx) => {
      for (const [index, song] of located.entries()) {
        const at = playedAt(times[index], now);
        const target =
          song.kind === 'v' ? { versionId: song.objectId } : { bounceId: song.objectId };
        const last = await this.deps.plays.lastPlay(caller.userId, target, trx);
        await this.deps.plays.insertPlay(
          {
            id: randomUUID(),
            user_id: caller.userId,
            player_app_id: caller.appId,
            project_id: song.kind === 'v' ? song.albumKey.slice(2) : null,
            version_id: song.kind === 'v' ? song.objectId : null,
            repo_id: song.kind === 'b' ? song.albumKey.slice(2) : null,
            bounce_id: song.kind === 'b' ? song.objectId : null,
            played_at: at,
          },
          trx,
        );
        if (last && Date.parse(at) - Date.parse(last) < LISTENED_QUIET_MS) continue;
        const actor = { userId: caller.userId };
        if (song.kind === 'v') {
          await this.deps.activity.recordForVersion(trx, song.objectId, {
            kind: 'version.listened',
            actor,
            data: { device_name: caller.appName },
          });
        } else {
          const view = await this.song(caller, `b-${song.objectId}`);
          await this.deps.activity.record(trx, {
            kind: 'bounce.listened',
            actor,
            repoId: song.albumKey.slice(2),
            targetId: song.objectId,
            data: { bounce_name: view.title, branch_name: '', device_name: caller.appName },
          });
        }
      }
    });
  }

  /** Collections the caller may view, as playlists. */
  async playlists(caller: PlayerCaller) {
    const { collections } = await this.deps.collections.list(caller.userId);
    return collections.map((collection) => playlistView(caller, collection));
  }

  /** One collection with the items the caller may play now, as songs. */
  async playlist(caller: PlayerCaller, id: string | undefined) {
    const parsed = parseId(id);
    if (!parsed || parsed.kind !== 'c') throw notFound('Playlist');
    const collection = await orNotFound('Playlist', () =>
      this.deps.collections.get(caller.userId, parsed.id),
    );
    const entry: SongView[] = [];
    for (const item of collection.items) {
      if (item.unavailable || item.status !== 'completed') continue;
      const songId = item.kind === 'bounce' ? `b-${item.bounce_id}` : `v-${item.version_id}`;
      try {
        entry.push(await this.song(caller, songId));
      } catch (error) {
        if (!(error instanceof SubsonicError)) throw error;
      }
    }
    return {
      ...playlistView(caller, collection),
      songCount: entry.length,
      duration: entry.reduce((sum, song) => sum + song.duration, 0),
      entry,
    };
  }

  /** The stored cover of an album ('r-…') or a playlist ('c-…') the caller may see. */
  async cover(
    caller: PlayerCaller,
    id: string | undefined,
  ): Promise<{ key: string; contentType: string }> {
    const parsed = parseId(id);
    if (parsed?.kind === 'c')
      return orNotFound('Cover art', () => this.deps.collections.cover(caller.userId, parsed.id));
    if (parsed?.kind === 'v' || parsed?.kind === 'b') {
      const song = await this.song(caller, id);
      return this.cover(caller, song.coverArt ?? song.albumId);
    }
    if (parsed?.kind !== 'r') throw notFound('Cover art');
    const album = await this.album(caller, id);
    if (!album.row.cover_key) throw notFound('Cover art');
    return {
      key: album.row.cover_key,
      contentType: album.row.cover_type ?? 'application/octet-stream',
    };
  }

  /** `size` songs at random (see subsonic-search.ts). */
  random(caller: PlayerCaller, size: number) {
    return randomSongs(
      { library: this, search: this.deps.search, plays: this.deps.repo },
      caller,
      size,
    );
  }

  /** Artists, albums and songs a search finds, a page of each (see subsonic-search.ts). */
  search(caller: PlayerCaller, query: string, pages: Record<SearchPart, Page>) {
    return searchLibrary(
      { library: this, search: this.deps.search, plays: this.deps.repo },
      caller,
      query,
      pages,
    );
  }
}
