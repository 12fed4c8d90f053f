import path from 'node:path';
import type { ObjectStore } from '../../storage/object-store';
import type { ExportsRepo } from './exports.repo';
import { safeSegment, UniqueNames } from '../../storage/zip-names';

/** One stored original to copy into the zip. */
export interface PlannedFile {
  /** Where it goes inside the zip. */
  path: string;
  key: string;
  size: number;
  mtime: Date;
}

/** The manifest, the files to copy and their total bytes (what progress counts). */
export type ExportPlan = Awaited<ReturnType<typeof planExport>>;
/** manifest.json: everything the export holds, with each file's path inside the zip. */
export type ExportManifest = ExportPlan['manifest'];

const MANIFEST_FORMAT = { format: 'takes-export', formatVersion: 1 } as const;

/** `.wav` from the uploaded name when it has a plain extension, else from the stored format. */
function extensionOf(originalName: string | null, format: string | null): string {
  const own = /\.[A-Za-z0-9]{1,5}$/.exec(originalName ?? '')?.[0];
  return (own ?? `.${format ?? 'bin'}`).toLowerCase();
}

const bool = (n: number) => n === 1;

/**
 * What an export holds for a person: every project they own (branches, versions, comments, share
 * links), every repository they own (branches, commits, bounces) and their collections (items by
 * reference), described in the manifest,
 * and the stored originals to copy beside it. A stored original that has gone missing is listed
 * with `file: null` rather than failing the whole export.
 */
export async function planExport(
  deps: { repo: ExportsRepo; storage: ObjectStore },
  user: { id: string; name: string; email: string },
  meta: { exportId: string; createdAt: string },
) {
  const files: PlannedFile[] = [];
  const top = new UniqueNames();
  const projectsFolder = top.take('projects');
  const reposFolder = top.take('repositories');
  top.take('manifest.json');

  /** Plans a stored original at `folder/name`; null when the object is not there. */
  const addFile = async (
    folder: string,
    names: UniqueNames,
    base: string,
    ext: string,
    key: string | null,
    createdAt: string,
  ): Promise<string | null> => {
    if (!key) return null;
    const info = await deps.storage.head(key);
    if (!info) return null;
    const filePath = path.posix.join(folder, names.take(base, ext));
    files.push({ path: filePath, key, size: info.size, mtime: new Date(createdAt) });
    return filePath;
  };

  const projectNames = new UniqueNames();
  const projects = [];
  for (const project of await deps.repo.ownedProjects(user.id)) {
    const folder = path.posix.join(
      projectsFolder,
      projectNames.take(safeSegment(project.name, 'Project')),
    );
    const branchNames = new UniqueNames();
    const versions = await deps.repo.versionsOf(project.id);
    const branches = [];
    for (const branch of await deps.repo.branchesOf(project.id)) {
      const branchFolder = path.posix.join(
        folder,
        branchNames.take(safeSegment(branch.name, 'Branch')),
      );
      const fileNames = new UniqueNames();
      const branchVersions = [];
      for (const v of versions.filter((row) => row.branch_id === branch.id)) {
        const title = path.posix
          .basename((v.original_name ?? '').replace(/\\/g, '/'))
          .replace(/\.[^.]*$/, '');
        const base = `v${v.version_number}${title ? ` - ${safeSegment(title, '')}` : ''}`;
        const ext = extensionOf(v.original_name, v.original_format);
        const file = await addFile(
          branchFolder,
          fileNames,
          base.trim(),
          ext,
          v.original_key,
          v.created_at,
        );
        branchVersions.push({
          id: v.id,
          number: v.version_number,
          message: v.message,
          tags: JSON.parse(v.tags) as string[],
          status: v.status,
          reviewStatus: v.review_status,
          originalName: v.original_name,
          format: v.original_format,
          size: v.original_size === null ? null : Number(v.original_size),
          fileUrl: v.file_url,
          createdAt: v.created_at,
          file,
        });
      }
      branches.push({
        id: branch.id,
        name: branch.name,
        isDefault: bool(branch.is_default),
        createdAt: branch.created_at,
        folder: branchFolder,
        versions: branchVersions,
      });
    }
    const comments = (await deps.repo.commentsOfProject(project.id)).map((c) => ({
      id: c.id,
      versionId: c.version_id,
      parentId: c.parent_id,
      author: c.user_name ?? c.visitor_name,
      userId: c.user_id,
      viaShareLinkId: c.link_id,
      content: c.content,
      timestampSeconds: c.timestamp_seconds,
      endTimestampSeconds: c.end_timestamp_seconds,
      teamOnly: bool(c.team_only),
      resolvedAt: c.resolved_at,
      createdAt: c.created_at,
    }));
    const reviews = (await deps.repo.reviewsOfProject(project.id)).map((r) => ({
      versionId: r.version_id,
      status: r.status,
      by: r.user_name ?? r.visitor_name,
      userId: r.user_id,
      viaShareLinkId: r.link_id,
      createdAt: r.created_at,
    }));
    // The link's key is left out: it opens the music to whoever holds it, and a zip travels.
    const shareLinks = (await deps.repo.linksOfProject(project.id)).map((l) => ({
      id: l.id,
      name: l.name,
      versionId: l.version_id,
      downloadEnabled: bool(l.download_enabled),
      listenersSeeEachOther: bool(l.listeners_see_each_other),
      allowApproval: bool(l.allow_approval),
      hasPassword: l.password_hash !== null,
      playCount: l.play_count,
      lastPlayedAt: l.last_played_at,
      expiresAt: l.expires_at,
      revokedAt: l.revoked_at,
      createdAt: l.created_at,
    }));
    projects.push({
      id: project.id,
      name: project.name,
      description: project.description,
      isPrivate: bool(project.is_private),
      createdAt: project.created_at,
      updatedAt: project.updated_at,
      folder,
      branches,
      comments,
      reviews,
      shareLinks,
    });
  }

  const repoNames = new UniqueNames();
  const repositories = [];
  for (const repo of await deps.repo.ownedRepos(user.id)) {
    const folder = path.posix.join(
      reposFolder,
      repoNames.take(safeSegment(repo.name, 'Repository')),
    );
    const repoBranches = await deps.repo.repoBranchesOf(repo.id);
    const commits = await deps.repo.commitsOf(repo.id);
    const branchNames = new UniqueNames();
    const folders = new Map(
      repoBranches.map((b) => [
        b.id,
        path.posix.join(folder, branchNames.take(safeSegment(b.name, 'Branch'))),
      ]),
    );
    const fileNames = new Map(repoBranches.map((b) => [b.id, new UniqueNames()]));
    const bounces = [];
    for (const b of await deps.repo.bouncesOf(repo.id)) {
      const branchFolder = folders.get(b.branch_id) ?? folder;
      const names = fileNames.get(b.branch_id) ?? new UniqueNames();
      const ext = extensionOf(b.filename, b.original_format);
      const file = await addFile(
        branchFolder,
        names,
        safeSegment(b.title, 'Bounce'),
        ext,
        b.original_key,
        b.created_at,
      );
      bounces.push({
        id: b.id,
        title: b.title,
        filename: b.filename,
        branchId: b.branch_id,
        commitId: b.commit_id,
        commitSha: commits.find((c) => c.id === b.commit_id)?.sha ?? null,
        format: b.original_format,
        size: Number(b.original_size),
        createdAt: b.created_at,
        file,
      });
    }
    repositories.push({
      id: repo.id,
      name: repo.name,
      createdAt: repo.created_at,
      updatedAt: repo.updated_at,
      folder,
      branches: repoBranches.map((b) => ({
        id: b.id,
        name: b.name,
        isDefault: bool(b.is_default),
        headSha: b.head_sha,
        createdAt: b.created_at,
        folder: folders.get(b.id),
      })),
      commits: commits.map((c) => ({
        id: c.id,
        sha: c.sha,
        parentSha: c.parent_sha,
        branchId: c.branch_id,
        message: c.message,
        createdAt: c.created_at,
      })),
      bounces,
    });
  }

  // Collections hold no audio of their own: each item names the version it pins or the branch
  // whose newest processed version it follows (which may be in someone else's project).
  // Their share links go with them, keys and password hashes left out (as for version links),
  // each with its listen receipts (counts only, as they are kept).
  const [collectionLinks, receipts] = await Promise.all([
    deps.repo.collectionLinksOf(user.id),
    deps.repo.collectionReceiptsOf(user.id),
  ]);
  const collections = (await deps.repo.ownedCollections(user.id)).map((c) => ({
    id: c.id,
    name: c.name,
    description: c.description,
    createdAt: c.created_at,
    updatedAt: c.updated_at,
    items: c.items.map((item) => {
      if (item.version_id)
        return {
          id: item.id,
          kind: 'version' as const,
          versionId: item.version_id,
          addedAt: item.created_at,
        };
      if (item.bounce_id)
        return {
          id: item.id,
          kind: 'bounce' as const,
          bounceId: item.bounce_id,
          addedAt: item.created_at,
        };
      return {
        id: item.id,
        kind: 'latest' as const,
        branchId: item.branch_id,
        addedAt: item.created_at,
      };
    }),
    shareLinks: collectionLinks
      .filter((l) => l.collection_id === c.id)
      .map((l) => ({
        id: l.id,
        name: l.name,
        recipient:
          l.recipient_name === null ? null : { name: l.recipient_name, email: l.recipient_email },
        downloadEnabled: bool(l.download_enabled),
        hasPassword: Boolean(l.has_password),
        expiresAt: l.expires_at,
        revokedAt: l.revoked_at,
        createdAt: l.created_at,
        emailedAt: l.emailed_at,
        firstPlayedAt: l.first_played_at,
        receipts: receipts
          .filter((r) => r.link_id === l.id)
          .map((r) => ({
            itemId: r.item_id,
            playsStarted: Number(r.plays_started),
            plays30s: Number(r.plays_30s),
            plays90: Number(r.plays_90),
            downloads: Number(r.downloads),
            lastActivityAt: r.last_activity_at,
          })),
      })),
  }));

  const manifest = {
    ...MANIFEST_FORMAT,
    exportId: meta.exportId,
    createdAt: meta.createdAt,
    user,
    projects,
    repositories,
    collections,
    files: files.map((f) => ({ path: f.path, size: f.size })),
  };
  return { manifest, files, totalBytes: files.reduce((sum, f) => sum + f.size, 0) };
}
