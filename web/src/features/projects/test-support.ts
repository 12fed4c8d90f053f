import type {
  BranchWithVersions,
  Comment,
  Project,
  PublicProject,
  SharedProject,
  Version,
} from '@takes/contract';

/** Test-only builders for projects, branches, versions and comments as the API answers them. */

export function project(overrides: Partial<Project> = {}): Project {
  return {
    id: 'p1',
    name: 'Night Drive',
    description: 'Synth-pop single',
    is_private: true,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-05T00:00:00.000Z',
    owner_id: 'u1',
    listed: false,
    role: 'owner',
    branches: [{ id: 'b1', project_id: 'p1', name: 'main', is_default: true, version_count: 1 }],
    ...overrides,
  };
}

export function sharedProject(overrides: Partial<SharedProject> = {}): SharedProject {
  return {
    ...project({ id: 'p2', name: 'Band Demo', owner_id: 'u9', role: 'editor' }),
    owner: { id: 'u9', name: 'Olive Owner', avatar_url: null },
    ...overrides,
  };
}

export function version(overrides: Partial<Version> = {}): Version {
  return {
    id: 'v1',
    project_id: 'p1',
    branch_id: 'b1',
    version_number: 1,
    message: 'First mix',
    tags: [],
    created_at: '2026-01-02T00:00:00.000Z',
    status: 'completed',
    error: null,
    file_path: null,
    original_file_url: null,
    stream_file_url: null,
    waveform_data: null,
    metadata: null,
    loudness: null,
    review_status: 'in_review',
    file_size: null,
    ...overrides,
  };
}

export function branch(overrides: Partial<BranchWithVersions> = {}): BranchWithVersions {
  return {
    id: 'b1',
    project_id: 'p1',
    name: 'main',
    is_default: true,
    version_count: 1,
    versions: [version()],
    ...overrides,
  };
}

export function publicProject(overrides: Partial<PublicProject> = {}): PublicProject {
  return {
    id: 'p1',
    name: 'Night Drive',
    description: 'Synth-pop single',
    owner_name: 'Olive Owner',
    listed: false,
    updated_at: '2026-01-05T00:00:00.000Z',
    branches: [
      {
        id: 'b1',
        name: 'main',
        is_default: true,
        versions: [
          {
            id: 'v1',
            version_number: 1,
            message: 'First mix',
            created_at: '2026-01-02T00:00:00.000Z',
            status: 'completed',
            waveform_data: { peaks: [0.2, 0.5], duration: 90 },
          },
        ],
      },
      {
        id: 'b2',
        name: 'acoustic',
        is_default: false,
        versions: [],
      },
    ],
    ...overrides,
  };
}

export function comment(overrides: Partial<Comment> = {}): Comment {
  return {
    id: 'c1',
    version_id: 'v1',
    user_id: 'u1',
    visitor_name: null,
    author: 'Me',
    avatar_url: null,
    content: 'Kick is muddy',
    timestamp: 12,
    end_timestamp: null,
    version_number: 1,
    parent_id: null,
    resolved: false,
    created_at: '2026-01-03T00:00:00.000Z',
    team_only: false,
    ...overrides,
  };
}
