import type { Migration } from 'kysely';
import * as m0001 from './0001-jobs';
import * as m0002 from './0002-accounts';
import * as m0003 from './0003-desktop-tokens';
import * as m0004 from './0004-projects';
import * as m0005 from './0005-sharing';
import * as m0006 from './0006-repositories';
import * as m0007 from './0007-contact';
import * as m0008 from './0008-account-security';
import * as m0009 from './0009-stored-audio';
import * as m0010 from './0010-demo-accounts';
import * as m0011 from './0011-comment-visibility';
import * as m0012 from './0012-rate-limit-expiry';
import * as m0013 from './0013-members';
import * as m0014 from './0014-activity';
import * as m0015 from './0015-queue-workers';
import * as m0016 from './0016-data-exports';
import * as m0017 from './0017-review';
import * as m0018 from './0018-search';
import * as m0019 from './0019-search-names';
import * as m0020 from './0020-version-previews';
import * as m0021 from './0021-resumable-uploads';
import * as m0022 from './0022-feed-previews';
import * as m0023 from './0023-feed-walk';
import * as m0024 from './0024-branch-version-count';
import * as m0025 from './0025-collections';
import * as m0026 from './0026-collection-links';
import * as m0027 from './0027-link-passwords-and-comments';
import * as m0028 from './0028-collection-covers';
import * as m0029 from './0029-collection-zips';
import * as m0030 from './0030-collection-members';
import * as m0031 from './0031-collection-bounces';
import * as m0032 from './0032-collection-link-comments';
import * as m0033 from './0033-links-by-maker';
import * as m0034 from './0034-version-alignments';
import * as m0035 from './0035-blind-tests';
import * as m0036 from './0036-player-apps';
import * as m0037 from './0037-invite-links-and-access-requests';
import * as m0038 from './0038-upload-links';
import * as m0039 from './0039-repo-upload-links';
import * as m0040 from './0040-instance-admin';

/** Every migration, in order. Names sort lexically; never rename or edit a shipped one. */
export const migrations: Record<string, Migration> = {
  '0001-jobs': m0001,
  '0002-accounts': m0002,
  '0003-desktop-tokens': m0003,
  '0004-projects': m0004,
  '0005-sharing': m0005,
  '0006-repositories': m0006,
  '0007-contact': m0007,
  '0008-account-security': m0008,
  '0009-stored-audio': m0009,
  '0010-demo-accounts': m0010,
  '0011-comment-visibility': m0011,
  '0012-rate-limit-expiry': m0012,
  '0013-members': m0013,
  '0014-activity': m0014,
  '0015-queue-workers': m0015,
  '0016-data-exports': m0016,
  '0017-review': m0017,
  '0018-search': m0018,
  '0019-search-names': m0019,
  '0020-version-previews': m0020,
  '0021-resumable-uploads': m0021,
  '0022-feed-previews': m0022,
  '0023-feed-walk': m0023,
  '0024-branch-version-count': m0024,
  '0025-collections': m0025,
  '0026-collection-links': m0026,
  '0027-link-passwords-and-comments': m0027,
  '0028-collection-covers': m0028,
  '0029-collection-zips': m0029,
  '0030-collection-members': m0030,
  '0031-collection-bounces': m0031,
  '0032-collection-link-comments': m0032,
  '0033-links-by-maker': m0033,
  '0034-version-alignments': m0034,
  '0035-blind-tests': m0035,
  '0036-player-apps': m0036,
  '0037-invite-links-and-access-requests': m0037,
  '0038-upload-links': m0038,
  '0039-repo-upload-links': m0039,
  '0040-instance-admin': m0040,
};
