/**
 * The exports module's public face: 'Export my data' (a zip of everything a person owns, built
 * by a job, downloadable for a day).
 */
export { ExportsService } from './exports.service';
export { buildExportJob, expireExportsJob } from './jobs';
