/**
 * The guest-uploads module's public face: file requests. An 'Upload link' of a project's or a
 * repository's branch lets guests without an account send files (through the uploads module's
 * guest tus endpoint, whose gate is GuestIntake); each file waits as a guest file, processed and
 * playable by the team, until it is added as the branch's next version (or, for a repository,
 * as a bounce of the branch) or declined.
 */
export { GuestFilesService, type BounceWriter, type VersionWriter } from './guest-files.service';
export { GuestIntake, GUEST_RATE_RULES, guestUploader } from './guest-intake.service';
export { GuestUploadsRepo } from './guest-uploads.repo';
export { guestUploadLinkRoutes, guestUploadTeamRoutes } from './guest-uploads.routes';
export { guestOf } from './guest-words';
export { UploadLinksService } from './upload-links.service';
