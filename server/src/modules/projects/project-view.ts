import type { BranchSummary, Project, Role } from '@takes/contract';
import type { Branch, ProjectRow } from '../../db/schema';

/** A project as the API shows it without its branches (a version's project, a compare's). */
export function toProjectSummary(row: ProjectRow, role: Role): Omit<Project, 'branches'> {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    is_private: row.is_private === 1,
    created_at: row.created_at,
    updated_at: row.updated_at,
    owner_id: row.owner_id,
    listed: row.listed === 1,
    role,
  };
}

/** A project with its branches, as the caller (of this role) sees it. */
export function toProject(row: ProjectRow, branches: Branch[], role: Role): Project {
  return { ...toProjectSummary(row, role), branches: branches.map(toBranch) };
}

export function toBranch(row: Branch): BranchSummary {
  return {
    id: row.id,
    project_id: row.project_id,
    name: row.name,
    is_default: row.is_default === 1,
    version_count: row.version_count,
  };
}
