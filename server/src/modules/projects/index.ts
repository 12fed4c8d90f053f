/**
 * The projects module's public face: projects and their branches (the service others ask), and
 * how a project looks in the API, written once for every module that answers one.
 */
export { DEFAULT_BRANCH, ProjectsService } from './projects.service';
export { toBranch, toProject, toProjectSummary } from './project-view';
