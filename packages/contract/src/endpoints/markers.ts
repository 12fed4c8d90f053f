import { z } from 'zod';
import { binary, defineEndpoint } from '../endpoint';
import { MARKER_FORMATS } from '../marker-files';
import { shareLink, signedIn } from './shared';

const tag = 'comments';
const markerQuery = z.object({
  format: z.enum(MARKER_FORMATS),
  /** 'include' adds resolved comments; open ones only by default. */
  resolved: z.enum(['include', 'exclude']).default('exclude'),
});
const MARKER_TYPES = ['audio/wav', 'audio/midi', 'text/csv', 'text/plain'];
const description =
  "A version's comments (open ones unless `resolved=include`; earlier versions' open comments carried onto it where they exist) as DAW markers: `wav` (the audio with `cue ` and `LIST`/`adtl` labels; needs download access), `midi` (marker meta events at 120 BPM, 1920 ticks a second), `reaper` (Region/Marker Manager CSV) or `audacity` (a label track).";

export const getVersionMarkers = defineEndpoint({
  name: 'getVersionMarkers',
  method: 'GET',
  path: '/api/versions/:versionId/markers',
  summary: "A version's comments as DAW markers",
  description,
  tag,
  auth: signedIn,
  demo: 'allowed',
  params: z.object({ versionId: z.string().min(1).max(64) }),
  query: markerQuery,
  responses: { 200: binary(MARKER_TYPES, 'The marker file.', { attachment: true }) },
  errors: [400, 401, 403, 404, 409],
});

export const getShareLinkMarkers = defineEndpoint({
  name: 'getShareLinkMarkers',
  method: 'GET',
  path: '/api/links/hash/:hash/markers',
  summary:
    "A shared version's comments as DAW markers (the WAV only when the link allows downloads)",
  description,
  tag,
  auth: shareLink,
  demo: 'allowed',
  params: z.object({ hash: z.string().min(1).max(64) }),
  query: markerQuery,
  responses: { 200: binary(MARKER_TYPES, 'The marker file.', { attachment: true }) },
  errors: [400, 401, 403, 404, 410, 429],
});
