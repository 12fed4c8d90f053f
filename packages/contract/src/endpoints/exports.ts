import { z } from 'zod';
import { binary, defineEndpoint } from '../endpoint';
import { dataExportSchema, latestDataExportSchema } from '../exports';
import { signedIn } from './shared';

const tag = 'exports';

export const startDataExport = defineEndpoint({
  name: 'startDataExport',
  method: 'POST',
  path: '/api/exports',
  summary: 'Export my data: start building a zip of everything you own (one at a time)',
  description:
    'Every project you own (branches, versions with their original audio, comments, share links) and your repositories (commits, bounces), with a manifest.json. Built in the background: poll the latest export for progress. 409 while another of yours is queued or running.',
  tag,
  auth: signedIn,
  demo: 'allowed',
  responses: { 202: dataExportSchema },
  errors: [401, 409],
});

export const getLatestDataExport = defineEndpoint({
  name: 'getLatestDataExport',
  method: 'GET',
  path: '/api/exports/latest',
  summary: 'Your latest export: state, progress, size and until when it can be downloaded',
  tag,
  auth: signedIn,
  demo: 'allowed',
  responses: { 200: latestDataExportSchema },
  errors: [401],
});

export const downloadDataExport = defineEndpoint({
  name: 'downloadDataExport',
  method: 'GET',
  path: '/api/exports/:id/download',
  summary: 'Download a ready export (a zip), for 24 hours after it is made',
  tag,
  auth: signedIn,
  demo: 'allowed',
  params: z.object({ id: z.string().min(1).max(64) }),
  responses: {
    200: binary(['application/zip'], 'The export: a zip file.', { attachment: true }),
  },
  errors: [400, 401, 404, 409, 410],
});
