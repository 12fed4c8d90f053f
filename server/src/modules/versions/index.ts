/**
 * The versions module's public face: versions of a project's branches (reading, uploading,
 * deleting) and how a version looks in the API.
 */
export { VersionsService } from './versions.service';
export { UploadService, type ReceivedFile, type UploadFields } from './upload.service';
export { toListedVersion, toVersion } from './version-view';
