import type { Endpoint } from '../endpoint';
import * as projects from './projects';

/** The endpoints by module; `endpoints.projects.listProjects` and so on. */
export const endpoints = { projects } as const;

/** Every endpoint, for a check that the server registers each one exactly once. */
export const allEndpoints: readonly Endpoint[] = Object.values(endpoints).flatMap((group) =>
  Object.values(group),
);
