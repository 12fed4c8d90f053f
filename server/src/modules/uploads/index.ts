/**
 * The uploads module's public face for other modules: the rules of what an upload of a version
 * names (its fields), shared by the multipart route and resumable uploads. The tus service
 * itself is wired in services.ts.
 */
export {
  BRANCH_MISSING,
  checkUploadTarget,
  isUploadField,
  MAX_UPLOAD_FIELD,
  parseTags,
  refuseFormerName,
  UPLOAD_FIELD_NAMES,
  type UploadFields,
  type UploadTarget,
} from './upload-fields';
