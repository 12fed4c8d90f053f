import { z } from 'zod';
import { defineEndpoint, empty } from '../endpoint';
import {
  branchNameBodySchema,
  branchSummarySchema,
  branchWithVersionsSchema,
  createProjectBodySchema,
  listProjectsQuerySchema,
  projectSchema,
  sharedProjectSchema,
  updateProjectBodySchema,
} from '../projects';

const projectParams = z.object({ projectId: z.string().min(1).max(64) });
const branchParams = z.object({ branchId: z.string().min(1).max(64) });
const auth = ['session', 'desktopToken'] as const;

export const listProjects = defineEndpoint({
  name: 'listProjects',
  method: 'GET',
  path: '/api/projects',
  summary: "List the projects you own ('Your Projects'), most recently updated first",
  description:
    'Without `limit`, every project. With `limit`, one page; the next page is asked with `after` set to the last project id of this one (a page shorter than `limit` is the last).',
  tag: 'projects',
  auth,
  demo: 'allowed',
  query: listProjectsQuerySchema,
  responses: { 200: z.array(projectSchema) },
  errors: [400, 401],
});

export const listSharedProjects = defineEndpoint({
  name: 'listSharedProjects',
  method: 'GET',
  path: '/api/projects/shared',
  summary: "Projects others own that you are a member of ('Shared with you'), newest first",
  tag: 'projects',
  auth,
  demo: 'allowed',
  responses: { 200: z.array(sharedProjectSchema) },
  errors: [401],
});

export const createProject = defineEndpoint({
  name: 'createProject',
  method: 'POST',
  path: '/api/projects',
  summary: 'Create a project with its default branch',
  tag: 'projects',
  auth,
  demo: 'allowed',
  body: createProjectBodySchema,
  responses: { 201: projectSchema },
  errors: [400, 401, 409],
});

export const getProject = defineEndpoint({
  name: 'getProject',
  method: 'GET',
  path: '/api/projects/:projectId',
  summary: 'Get one project with its branches',
  tag: 'projects',
  auth,
  demo: 'allowed',
  params: projectParams,
  responses: { 200: projectSchema },
  errors: [400, 401, 404],
});

export const updateProject = defineEndpoint({
  name: 'updateProject',
  method: 'PATCH',
  path: '/api/projects/:projectId',
  summary: 'Rename a project or change its description',
  description: "Also 'List in search engines' (`listed`). Owner only.",
  tag: 'projects',
  auth,
  demo: 'allowed',
  params: projectParams,
  body: updateProjectBodySchema,
  responses: { 200: projectSchema },
  errors: [400, 401, 403, 404, 409],
});

export const toggleProjectPrivacy = defineEndpoint({
  name: 'toggleProjectPrivacy',
  method: 'POST',
  path: '/api/projects/:projectId/toggle-privacy',
  summary: 'Switch a project between private and public',
  tag: 'projects',
  auth,
  demo: 'allowed',
  params: projectParams,
  responses: { 200: projectSchema },
  errors: [400, 401, 403, 404],
});

export const deleteProject = defineEndpoint({
  name: 'deleteProject',
  method: 'DELETE',
  path: '/api/projects/:projectId',
  summary: 'Delete a project with its branches, versions, links and stored audio',
  tag: 'projects',
  auth,
  demo: 'allowed',
  params: projectParams,
  responses: { 204: empty('Deleted.') },
  errors: [400, 401, 403, 404],
});

export const listBranches = defineEndpoint({
  name: 'listBranches',
  method: 'GET',
  path: '/api/projects/:projectId/branches',
  summary: "List a project's branches with their versions",
  tag: 'projects',
  auth,
  demo: 'allowed',
  params: projectParams,
  responses: { 200: z.array(branchWithVersionsSchema) },
  errors: [400, 401, 404],
});

export const createBranch = defineEndpoint({
  name: 'createBranch',
  method: 'POST',
  path: '/api/projects/:projectId/branches',
  summary: 'Create a branch in a project',
  tag: 'projects',
  auth,
  demo: 'allowed',
  params: projectParams,
  body: branchNameBodySchema,
  responses: { 201: branchSummarySchema },
  errors: [400, 401, 403, 404, 409],
});

export const renameBranch = defineEndpoint({
  name: 'renameBranch',
  method: 'PATCH',
  path: '/api/branches/:branchId',
  summary: 'Rename a branch',
  tag: 'projects',
  auth,
  demo: 'allowed',
  params: branchParams,
  body: branchNameBodySchema,
  responses: { 200: branchSummarySchema },
  errors: [400, 401, 403, 404, 409],
});

export const setDefaultBranch = defineEndpoint({
  name: 'setDefaultBranch',
  method: 'POST',
  path: '/api/branches/:branchId/default',
  summary: "Make a branch its project's default",
  tag: 'projects',
  auth,
  demo: 'allowed',
  params: branchParams,
  responses: { 200: branchSummarySchema },
  errors: [400, 401, 403, 404, 409],
});

export const deleteBranch = defineEndpoint({
  name: 'deleteBranch',
  method: 'DELETE',
  path: '/api/branches/:branchId',
  summary: 'Delete a branch with its versions (not the default branch)',
  tag: 'projects',
  auth,
  demo: 'allowed',
  params: branchParams,
  responses: { 204: empty('Deleted.') },
  errors: [400, 401, 403, 404, 409],
});
