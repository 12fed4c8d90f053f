import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import {
  audacityLabels,
  MARKER_CONTENT_TYPES,
  MARKER_EXTENSIONS,
  MARKER_MESSAGES,
  midiMarkers,
  reaperCsv,
  type Comment,
  type Marker,
  type MarkerFormat,
} from '@takes/contract';
import type { ProjectRow, VersionsTable } from '../../db/schema';
import { Forbidden, NotFound } from '../../errors';
import type { MediaRunner } from '../../media/runner';
import { wavWithMarkers } from '../../media/wav-markers';
import type { ObjectStore } from '../../storage/object-store';
import type { AccessPolicy } from '../access';
import type { OpenedLink } from '../sharing';
import type { CommentsService } from './comments.service';

/** A marker file, ready to send. */
export interface MarkerFile {
  body: Buffer | Readable;
  size: number;
  contentType: string;
  fileName: string;
  /** Removes scratch files once the answer has gone. */
  cleanup?: () => Promise<void>;
}

/** A comment as a marker: 'Author: text' at its time, or over its range. */
export function markersOf(comments: readonly Comment[], includeResolved: boolean): Marker[] {
  return comments
    .filter(
      (comment) =>
        comment.parent_id === null &&
        comment.timestamp !== null &&
        (includeResolved || !comment.resolved),
    )
    .map((comment) => ({
      start: comment.timestamp as number,
      end:
        comment.end_timestamp !== null && comment.end_timestamp > (comment.timestamp as number)
          ? comment.end_timestamp
          : null,
      label: `${comment.author}: ${comment.content}`,
    }))
    .sort((a, b) => a.start - b.start);
}

/** A name made of the project's name, safe for a disk and a header. */
function fileNameOf(project: ProjectRow, version: VersionsTable, format: MarkerFormat): string {
  const base =
    [...`${project.name} v${version.version_number} comments`]
      .map((c) => (c < ' ' || '\\/:*?"<>|'.includes(c) ? ' ' : c))
      .join('')
      .replace(/\s+/g, ' ')
      .trim() || 'comments';
  return `${base}.${MARKER_EXTENSIONS[format]}`;
}

/**
 * A version's comments as DAW markers (issue 46): text and MIDI files from the comments alone,
 * the WAV with the version's audio (download access needed, as for the original itself).
 */
export class MarkersService {
  constructor(
    private readonly deps: {
      access: AccessPolicy;
      comments: CommentsService;
      versions: {
        findWithProject(
          versionId: string,
        ): Promise<{ version: VersionsTable; project: ProjectRow } | undefined>;
      };
      storage: ObjectStore;
      media: MediaRunner;
      tmpDir: string;
      timeoutMs: number;
    },
  ) {}

  /** A member's export: open comments (and earlier versions' carried ones), or all. */
  async forMember(
    userId: string,
    versionId: string,
    format: MarkerFormat,
    includeResolved: boolean,
  ): Promise<MarkerFile> {
    const comments = await this.deps.comments.memberComments(
      userId,
      versionId,
      includeResolved,
      true,
    );
    if (format === 'wav') {
      try {
        await this.deps.access.version(userId, versionId, 'download');
      } catch (error) {
        if (error instanceof Forbidden) throw new Forbidden(MARKER_MESSAGES.wavNeedsDownload);
        throw error;
      }
    }
    const found = await this.deps.versions.findWithProject(versionId);
    if (!found) throw new NotFound('Version not found');
    return this.file(found, format, markersOf(comments, includeResolved));
  }

  /** A link visitor's export: what the link shows; the WAV only when it allows downloads. */
  async forLink(
    opened: OpenedLink,
    format: MarkerFormat,
    includeResolved: boolean,
  ): Promise<MarkerFile> {
    if (format === 'wav' && !opened.link.download_enabled)
      throw new Forbidden(MARKER_MESSAGES.wavNeedsDownload);
    const comments = await this.deps.comments.visitorComments(opened);
    return this.file(opened, format, markersOf(comments, includeResolved));
  }

  private async file(
    { version, project }: { version: VersionsTable; project: ProjectRow },
    format: MarkerFormat,
    markers: Marker[],
  ): Promise<MarkerFile> {
    const named = {
      contentType: MARKER_CONTENT_TYPES[format],
      fileName: fileNameOf(project, version, format),
    };
    if (format !== 'wav') {
      const body = Buffer.from(
        format === 'midi'
          ? midiMarkers(markers)
          : format === 'reaper'
            ? reaperCsv(markers)
            : audacityLabels(markers),
      );
      return { ...named, body, size: body.length };
    }
    if (!version.original_key) throw new NotFound('This version has no stored audio');
    const original = path.join(this.deps.tmpDir, `markers-in-${randomUUID()}`);
    try {
      const { body } = await this.deps.storage.get(version.original_key);
      await pipeline(body, createWriteStream(original));
      const wav = await wavWithMarkers(
        this.deps,
        { file: original, format: version.original_format },
        markers,
      );
      return {
        ...named,
        body: wav.body,
        size: wav.size,
        cleanup: async () => {
          await wav.cleanup();
          await rm(original, { force: true });
        },
      };
    } catch (error) {
      await rm(original, { force: true });
      throw error;
    }
  }
}
