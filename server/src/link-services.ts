import type { RateLimiter } from './auth/rate-limiter';
import type { AppDeps } from './deps';
import type { AccessPolicy } from './modules/access';
import type { ActivityLog } from './modules/activity';
import { BlindListening, BlindTestsRepo, BlindTestsService } from './modules/blind-tests';
import { CollectionLinksRepo } from './modules/collections/collection-links.repo';
import { CollectionLinksService } from './modules/collections/collection-links.service';
import { CollectionZipsRepo } from './modules/collections/collection-zips.repo';
import { CollectionZipsService } from './modules/collections/collection-zips.service';
import { CollectionsRepo } from './modules/collections/collections.repo';
import type { ReposRepo } from './modules/repos/repos.repo';
import type { ReviewService } from './modules/review';
import { LinkPasswords } from './modules/sharing/link-password';
import { LinksRepo } from './modules/sharing/links.repo';
import { SharingService } from './modules/sharing/sharing.service';
import type { VersionsRepo } from './modules/versions/versions.repo';

/**
 * The services behind every kind of link a listener opens (a version's, a collection's, a blind
 * test's), wired for createServices: they share the link passwords, and a version link's lookup
 * tells a collection's or a blind test's key apart.
 */
export function createLinkServices(ctx: {
  deps: AppDeps;
  access: AccessPolicy;
  limiter: RateLimiter;
  activity: ActivityLog;
  versionsRepo: VersionsRepo;
  reposRepo: ReposRepo;
  review: ReviewService;
}) {
  const { deps, access, limiter, activity, versionsRepo, reposRepo } = ctx;
  const { clock, jobs, storage, config, tmpDir } = deps;
  const db = deps.database.db;
  const secureCookies = config.publicUrl.startsWith('https:');
  // Passwords on share links (version, collection and blind-test links alike).
  const linkPasswords = new LinkPasswords({ limiter, secret: deps.secretKey, secureCookies });
  // Collections of takes from any project their members may listen to.
  const collectionsRepo = new CollectionsRepo(db);
  // Share links to a collection, made by its owner.
  const collectionLinks = new CollectionLinksService({
    access,
    collections: collectionsRepo,
    links: new CollectionLinksRepo(db),
    versions: versionsRepo,
    bounces: reposRepo,
    clock,
    limiter,
    passwords: linkPasswords,
    mailer: deps.mailer,
    publicUrl: config.publicUrl,
    activity,
  });
  // 'Download all' on a collection link: a zip of its items' originals, built by a job.
  const collectionZips = new CollectionZipsService({
    repo: new CollectionZipsRepo(db),
    links: collectionLinks,
    storage,
    jobs,
    clock,
    limiter,
    tmpDir,
  });
  // Blind tests: versions heard by letter only, loudness-matched, through their own links.
  const blindRepo = new BlindTestsRepo(db);
  const blindTests = {
    owner: new BlindTestsService({
      access,
      repo: blindRepo,
      clock,
      jobs,
      passwords: linkPasswords,
      review: ctx.review,
      storage,
      media: deps.media,
      publicUrl: config.publicUrl,
    }),
    listening: new BlindListening({
      repo: blindRepo,
      clock,
      limiter,
      passwords: linkPasswords,
      secureCookies,
    }),
  };
  const sharing = new SharingService({
    access,
    links: new LinksRepo(db),
    versions: versionsRepo,
    clock,
    limiter,
    activity,
    passwords: linkPasswords,
    collectionKeys: collectionLinks,
    blindKeys: blindTests.listening,
  });
  return { collectionsRepo, collectionLinks, collectionZips, sharing, blindTests, linkPasswords };
}
