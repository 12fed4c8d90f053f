/**
 * The load benchmark's world, made through the HTTP API as people would make it: owners sign up
 * and upload real audio (processed by the server), share links and comments; every simulated
 * listener and browser has an account of its own, invited into a project by email (the code is
 * caught by a real SMTP sink) and accepted. Each simulated person comes from an address of its
 * own (X-Forwarded-For through a trusted proxy), as they would behind a load balancer, so the
 * per-IP limits stay on and are not what the benchmark measures.
 */
import fs from 'node:fs';
import {
  createApiClient,
  endpoints,
  INVITE_LINK_MAX_USES,
  type ApiClient,
  type MemberRole,
} from '@takes/contract';
import { codeFrom, type TestSmtp } from '../test/smtp';
import { cookieHeader, signUp, sleep, uploadFile, type UploadAnswer } from './support';

export interface Person {
  email: string;
  cookie: string;
  /** The address this person's requests come from (sent as X-Forwarded-For). */
  ip: string;
}

export interface SeededVersion {
  versionId: string;
  projectId: string;
  shareHash: string;
  /** Bytes of the high-quality rendition, and of what its share link streams. */
  highBytes: number;
  sharedBytes: number;
}

export interface Seeded {
  admin: Person;
  versions: SeededVersion[];
  /** Signed-in listeners (Viewers), each with the version it plays. */
  listeners: { person: Person; version: SeededVersion }[];
  /** Dashboard/project/version browsers (Commenters), each with the version whose pages it opens. */
  browsers: { person: Person; version: SeededVersion }[];
  uploaders: Person[];
}

let addresses = 0;
/** A new private address per simulated person. */
const nextIp = () => {
  addresses++;
  return `10.16.${addresses >> 8}.${addresses & 255}`;
};

export function clientOf(origin: string, person: Person): ApiClient {
  return createApiClient({
    baseUrl: origin,
    headers: () => ({ cookie: person.cookie, origin, 'x-forwarded-for': person.ip }),
  });
}

export const personEmail = (name: string) => `${name}-${Date.now()}@load.example.com`;

async function newPerson(origin: string, name: string, email = personEmail(name)) {
  const ip = nextIp();
  const person: Person = {
    email,
    ip,
    cookie: await signUp(origin, email, { 'x-forwarded-for': ip }),
  };
  return person;
}

/** Signs in with an emailed code (which makes the account, with its address verified). */
async function signInByCode(origin: string, smtp: TestSmtp, email: string): Promise<Person> {
  const ip = nextIp();
  const post = (path: string, body: object) =>
    fetch(`${origin}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin, 'x-forwarded-for': ip },
      body: JSON.stringify(body),
    });
  const sent = await post('/api/auth/magic-code/send', { email });
  if (!sent.ok) throw new Error(`sending a code failed: ${sent.status} ${await sent.text()}`);
  const code = codeFrom(await smtp.waitFor(email));
  const verified = await post('/api/auth/magic-code/verify', { email, code });
  if (!verified.ok) throw new Error(`the code was refused: ${verified.status}`);
  return { email, ip, cookie: cookieHeader(verified) };
}

/** Runs `make` for 0..count-1, `width` at a time (sign-up hashes passwords: keep it gentle). */
async function inBatches<T>(count: number, width: number, make: (i: number) => Promise<T>) {
  const made: T[] = [];
  for (let start = 0; start < count; start += width) {
    const batch = Array.from({ length: Math.min(width, count - start) }, (_, k) => start + k);
    made.push(...(await Promise.all(batch.map(make))));
  }
  return made;
}

export async function waitProcessed(
  api: ApiClient,
  versionId: string,
  timeoutMs: number,
): Promise<'completed' | 'failed' | 'timed out'> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const { status } = await api.call(endpoints.versions.getVersionProcessing, {
      params: { versionId },
    });
    if (status === 'completed' || status === 'failed') return status;
    await sleep(500);
  }
  return 'timed out';
}

/** The total size a ranged GET reports (Content-Range: bytes 0-0/TOTAL). */
async function sizeOf(origin: string, path: string, headers: Record<string, string>) {
  const response = await fetch(`${origin}${path}`, { headers: { ...headers, range: 'bytes=0-0' } });
  await response.arrayBuffer();
  const total = /\/(\d+)$/.exec(response.headers.get('content-range') ?? '')?.[1];
  if (response.status !== 206 || !total) throw new Error(`no range answer from ${path}`);
  return Number(total);
}

export async function seed(
  origin: string,
  smtp: TestSmtp,
  plan: {
    projects: number;
    seedWavs: string[];
    listeners: number;
    browsers: number;
    uploaders: number;
  },
  adminEmail: string,
): Promise<Seeded> {
  const admin = await signInByCode(origin, smtp, adminEmail);
  const owners = [
    admin,
    ...(await inBatches(plan.projects - 1, 4, (i) => newPerson(origin, `owner${i + 2}`))),
  ];
  const versions: SeededVersion[] = [];
  for (const [o, owner] of owners.entries()) {
    const api = clientOf(origin, owner);
    let target: UploadAnswer | undefined;
    for (const [w, wav] of plan.seedWavs.entries()) {
      const fields: Record<string, string> = target
        ? {
            project_id: target.projectId,
            branch_id: target.branchId,
            commit_message: `Mix ${w + 1}`,
          }
        : { project_name: `Load test ${o + 1}` };
      target = await uploadFile(origin, owner.cookie, {
        fields,
        fileName: `mix-${w + 1}.wav`,
        content: () => fs.createReadStream(wav, { highWaterMark: 1024 * 1024 }),
        headers: { 'x-forwarded-for': owner.ip },
      });
      const status = await waitProcessed(api, target.versionId, 300_000);
      if (status !== 'completed') throw new Error(`seed version ${status}`);
      const link = await api.call(endpoints.sharing.createShareLink, {
        params: { versionId: target.versionId },
        body: { name: 'Load test listeners' },
      });
      for (let c = 0; c < 3; c++) {
        await api.call(endpoints.comments.addVersionComment, {
          params: { versionId: target.versionId },
          body: { content: `Note ${c + 1}: the bass at this point`, timestamp: 10 + c * 20 },
        });
      }
      const ownerHeaders = { cookie: owner.cookie, 'x-forwarded-for': owner.ip };
      versions.push({
        versionId: target.versionId,
        projectId: target.projectId,
        shareHash: link.hash,
        highBytes: await sizeOf(
          origin,
          `/api/versions/${target.versionId}/stream?quality=high`,
          ownerHeaders,
        ),
        sharedBytes: await sizeOf(origin, `/api/links/hash/${link.hash}/audio`, {}),
      });
    }
  }

  // Each project's owner makes one invite link per role (emailing 160 invitations would pass the
  // owners' hourly limit on emails); each person joins through it.
  const inviteLinks = new Map<string, Promise<string>>();
  const inviteLinkOf = (inviter: Person, projectId: string, role: MemberRole) => {
    const id = `${projectId} ${role}`;
    let link = inviteLinks.get(id);
    if (!link) {
      link = clientOf(origin, inviter)
        .call(endpoints.inviteLinks.createInviteLink, {
          params: { projectId },
          body: { name: `Load test ${role}s`, role, max_uses: INVITE_LINK_MAX_USES },
        })
        .then((created) => created.url.slice(created.url.lastIndexOf('/') + 1));
      inviteLinks.set(id, link);
    }
    return link;
  };
  const invite = async (name: string, i: number, role: MemberRole) => {
    const index = i % versions.length;
    const version = versions[index] as SeededVersion;
    // Versions were made project by project, in order: this is the owner of the version's project.
    const inviter = owners[Math.floor(index / plan.seedWavs.length)] as Person;
    // Signed in by an emailed code, so the address is proven (joining a project needs it).
    const person = await signInByCode(origin, smtp, personEmail(`${name}${i + 1}`));
    const key = await inviteLinkOf(inviter, version.projectId, role);
    await clientOf(origin, person).call(endpoints.inviteLinks.joinInviteLink, { body: { key } });
    return { person, version };
  };
  const listeners = await inBatches(plan.listeners, 4, (i) => invite('listener', i, 'viewer'));
  const browsers = await inBatches(plan.browsers, 4, (i) => invite('browser', i, 'commenter'));
  const uploaders = await inBatches(plan.uploaders, 4, (i) =>
    newPerson(origin, `uploader${i + 1}`),
  );
  return { admin, versions, listeners, browsers, uploaders };
}
