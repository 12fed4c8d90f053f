import { parseJson } from '../audio';
import type { WorkspaceRepo } from './workspace.repo';
import type { AccessPolicy } from '../access';

/**
 * Search across the projects a person owns or is a member of, their branches and versions
 * (names, descriptions, messages, tags).
 */
export class SearchService {
  constructor(private readonly deps: { repo: WorkspaceRepo; access: AccessPolicy }) {}

  async search(userId: string, q: string) {
    const { projects, branches, versions } = await this.deps.repo.search(userId, q);
    return {
      projects: projects.map(({ updated_at: _u, ...p }) => p),
      branches,
      versions: versions.map((v) => ({ ...v, tags: parseJson<string[]>(v.tags, []) })),
    };
  }
}
