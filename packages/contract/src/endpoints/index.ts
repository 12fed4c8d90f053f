import type { Endpoint } from '../endpoint';
import * as accessRequests from './access-requests';
import * as admin from './admin';
import * as activity from './activity';
import * as audioGit from './audio-git';
import * as auth from './auth';
import * as blindTests from './blind-tests';
import * as bounces from './bounces';
import * as collectionLinks from './collection-links';
import * as collections from './collections';
import * as comments from './comments';
import * as demo from './demo';
import * as desktop from './desktop';
import * as playerApps from './player-apps';
import * as dataExports from './exports';
import * as guestUploads from './guest-uploads';
import * as health from './health';
import * as inviteLinks from './invite-links';
import * as markers from './markers';
import * as members from './members';
import * as profiles from './profiles';
import * as publicPages from './public';
import * as projects from './projects';
import * as repos from './repos';
import * as review from './review';
import * as sharing from './sharing';
import * as site from './site';
import * as storage from './storage';
import * as versions from './versions';
import * as workspace from './workspace';

/** The endpoints by module; `endpoints.projects.listProjects` and so on. */
export const endpoints = {
  health,
  auth,
  desktop,
  playerApps,
  demo,
  profiles,
  projects,
  members,
  inviteLinks,
  accessRequests,
  publicPages,
  activity,
  dataExports,
  versions,
  sharing,
  comments,
  markers,
  review,
  repos,
  bounces,
  audioGit,
  collections,
  collectionLinks,
  blindTests,
  guestUploads,
  workspace,
  admin,
  site,
  storage,
} as const;

/** Every group exports descriptors only (this typing checks it). */
const groups: readonly Readonly<Record<string, Endpoint>>[] = Object.values(endpoints);

/** Every endpoint, for a check that the server registers each one exactly once. */
export const allEndpoints: readonly Endpoint[] = groups.flatMap((group) => Object.values(group));
