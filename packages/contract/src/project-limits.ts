/**
 * Projects' limits and messages, without schemas (see `roles.ts`): `projects.ts` adds the schemas
 * and re-exports all of this, so a page that only shows these words loads no zod.
 */
export const PROJECT_MESSAGES = {
  projectNameRequired: 'Project name is required',
  unknownCursor: 'The page to continue after was not found; load the list again',
  branchNameRequired: 'Branch name is required',
  branchExists: 'A branch with this name already exists in this project',
  defaultBranchDelete: 'The default branch cannot be deleted',
  fileRequired: 'Please select a file to upload',
  projectRequired: 'Please select a project',
  branchRequired: 'Please select a branch',
  messageRequired: 'Please enter a commit message',
  invalidType: 'Invalid file type. Please upload an MP3, WAV, AIFF, FLAC, or AAC file.',
  tooLarge:
    'File size exceeds the 500MB limit. Please upload a smaller file or contact support for assistance with very large files.',
  createVersionFailed: 'Failed to create version',
} as const;

export const MAX_UPLOAD_BYTES = 500 * 1024 * 1024;

/** The most projects one page of the dashboard's list holds. */
export const PROJECTS_PAGE_MAX = 100;

/**
 * How many projects the dashboard asks for at a time ('Load more' asks for the next as many); the
 * server lists that first request in the dashboard's HTML for preloading, so both use this one.
 */
export const PROJECTS_PAGE_SIZE = 50;
