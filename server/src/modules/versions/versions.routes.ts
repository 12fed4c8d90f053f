import multipart from '@fastify/multipart';
import type { FastifyPluginAsync } from 'fastify';
import { AUTH_MESSAGES, endpoints, MAX_UPLOAD_BYTES } from '@takes/contract';
import { plainCookie, userOf, type AuthGuard } from '../../auth/guard';
import { Unauthenticated } from '../../errors';
import { HttpError } from '../../http/errors';
import { holdsNul, NUL_MESSAGE } from '../../http/nul-characters';
import { noneMatch } from '../../http/range';
import { route } from '../../http/route';
import { redirectToSigned, sendObject, sendStoredAudio } from '../../http/send-object';
import type { ObjectStore } from '../../storage/object-store';
import { readPeaksFile } from '../audio';
import type { AuthService } from '../auth';
import { isUploadField, MAX_UPLOAD_FIELD, refuseFormerName, type UploadFields } from '../uploads';
import type { ReceivedFile, UploadService } from './upload.service';
import type { VersionsService } from './versions.service';

const api = endpoints.versions;

/** Versions of a track: listing, upload, processing, playback and download; all signed in. */
export const versionRoutes =
  (deps: {
    versions: VersionsService;
    uploads: UploadService;
    storage: ObjectStore;
    requireUser: AuthGuard;
    /** The cookie-session checks of the one-statement path of audio requests. */
    sessions: Pick<AuthService, 'cookieSessionToken' | 'liveCookieSession'>;
    signedDownloads: boolean;
  }): FastifyPluginAsync =>
  async (app) => {
    const { versions, uploads } = deps;
    // One byte over the limit reaches our counter, which answers 413.
    await app.register(multipart, {
      limits: {
        fileSize: MAX_UPLOAD_BYTES + 1,
        files: 1,
        fields: 20,
        fieldSize: MAX_UPLOAD_FIELD,
        parts: 25,
      },
    });

    route(app, api.listRecentVersions, {}, (request) =>
      versions.recent(userOf(request).id, request.query.limit),
    );
    route(app, api.listBranchVersions, {}, (request) =>
      versions.listForBranch(userOf(request).id, request.params.projectId, request.params.branchId),
    );
    route(app, api.createVersionFromUrl, {}, (request) =>
      versions.createFromUrl(userOf(request).id, request.body),
    );

    route(app, api.uploadVersion, {}, async (request) => {
      if (!request.isMultipart())
        throw new HttpError(400, 'Send the upload as multipart/form-data');
      const fields: UploadFields = {};
      let file: ReceivedFile | undefined;
      // Multipart text (fields, the file's name) comes past the JSON guard: the same rule for it.
      let nul = false;
      const names: string[] = [];
      try {
        for await (const part of request.parts()) {
          names.push(part.fieldname);
          if (part.type === 'file') {
            nul ||= holdsNul(part.filename);
            if (part.fieldname !== 'audio_file' || file || nul) {
              part.file.resume();
              continue;
            }
            // The declared size (the whole body's) is checked against the quota before streaming.
            const declared = Number(request.headers['content-length'] ?? Number.NaN);
            file = await uploads.receive(
              part.file,
              part.filename,
              userOf(request).id,
              Number.isFinite(declared) ? { bytes: declared, fields: { ...fields } } : undefined,
            );
          } else if (isUploadField(part.fieldname) && typeof part.value === 'string') {
            fields[part.fieldname] = part.value;
          }
        }
        if (nul || holdsNul(fields)) throw new HttpError(400, NUL_MESSAGE);
        names.forEach(refuseFormerName);
        return await uploads.createVersion(userOf(request).id, file, fields);
      } finally {
        await uploads.discard(file);
      }
    });

    route(app, api.getVersion, {}, (request) =>
      versions.getWithProject(userOf(request).id, request.params.versionId),
    );
    route(app, api.deleteVersion, {}, (request) =>
      versions.delete(userOf(request).id, request.params.versionId),
    );
    route(app, api.getVersionProcessing, {}, (request) =>
      versions.processing(userOf(request).id, request.params.versionId),
    );
    route(app, api.getVersionQualities, {}, (request) =>
      versions.qualities(userOf(request).id, request.params.versionId),
    );
    // A player's Range requests: a plain cookie session is read in the same statement as the
    // version (the guard lets these through to here); anything else goes through the guard.
    route(
      app,
      api.streamVersion,
      { config: { sessionInHandler: true } },
      async (request, reply) => {
        const { versionId } = request.params;
        const { quality } = request.query;
        const cookie = request.user ? undefined : plainCookie(request);
        const token = cookie === undefined ? undefined : deps.sessions.cookieSessionToken(cookie);
        if (token) {
          const found = await versions.audioForSession(token, versionId, quality, (row) =>
            deps.sessions.liveCookieSession(token, row),
          );
          if (found === null) throw new Unauthenticated(AUTH_MESSAGES.notAuthenticated);
          if (found) {
            request.user = found.user;
            return sendStoredAudio(request, reply, deps.storage, found.audio);
          }
        }
        // A bearer token, 'don't remember me', a session to renew or none: the guard's whole check.
        await deps.requireUser.full(request);
        const audio = await versions.audio(userOf(request).id, versionId, quality);
        return sendStoredAudio(request, reply, deps.storage, audio);
      },
    );
    // The stored file keeps processing's names; it is answered in the API's (readPeaksFile).
    route(app, api.getVersionPeaks, {}, async (request, reply) => {
      const key = await versions.peaksKey(userOf(request).id, request.params.versionId);
      const { peaks, etag } = await readPeaksFile(deps.storage, key);
      reply.header('cache-control', 'private, max-age=0, must-revalidate');
      reply.header('etag', etag);
      if (noneMatch(request.headers['if-none-match'], etag)) return reply.status(304).send();
      return peaks;
    });
    route(app, api.downloadVersion, {}, async (request, reply) => {
      const download = await versions.download(userOf(request).id, request.params.versionId);
      if (deps.signedDownloads) {
        return redirectToSigned(reply, deps.storage, download.key, {
          downloadName: download.fileName,
          contentType: download.contentType,
        });
      }
      return sendObject(reply, deps.storage, download.key, request.headers.range, {
        contentType: download.contentType,
        downloadName: download.fileName,
        redirect: true,
      });
    });
  };
