import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { CollectionLink, MemberRole } from '@takes/contract';
import { api, ORIGIN } from './api';
import { makeAudio } from './audio-fixtures';
import { addMember, buildProject, buildUser, buildVersion, depsOf } from './factories';
import type { TestApp } from './test-app';

export function expectError(response: LightMyRequestResponse, status: number, message: string) {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.json<{ error: string }>().error).toBe(message);
}

// The smallest valid PNG (1×1, transparent).
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** PUT /api/collections/:id/cover as multipart, the file named cover.png whatever it holds. */
export function sendCollectionCover(
  t: TestApp,
  cookie: string,
  id: string,
  content: Buffer,
  field = 'cover_image',
) {
  const boundary = '----takescollectioncover';
  return t.app.inject({
    method: 'PUT',
    url: `/api/collections/${id}/cover`,
    payload: Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="cover.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      content,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
    headers: {
      cookie,
      origin: ORIGIN,
      'content-type': `multipart/form-data; boundary=${boundary}`,
    },
  });
}

let addresses = 0;
/** A visitor with no session, from one client address (a new one each call unless given). */
export function visitor(
  t: TestApp,
  address = `10.9.${(addresses >> 8) & 255}.${++addresses & 255}`,
) {
  return {
    address,
    get: (url: string, cookie?: string) =>
      t.app.inject({
        method: 'GET',
        url,
        remoteAddress: address,
        headers: cookie ? { cookie } : {},
      }),
    post: (url: string, payload: object, cookie?: string, method: 'POST' | 'PUT' = 'POST') =>
      t.app.inject({
        method,
        url,
        payload,
        remoteAddress: address,
        headers: { origin: ORIGIN, ...(cookie ? { cookie } : {}) },
      }),
  };
}

/**
 * Me with a collection of three processed takes: one of my project, one of a band project I
 * am a member of (an Editor unless `bandRole` says otherwise: a link serves only what its owner
 * may share), one more of mine; and an item of another collection of mine. `dir` holds the audio
 * made for it.
 */
export async function collectionWorld(
  t: TestApp,
  dir: string,
  { bandRole = 'editor' }: { bandRole?: MemberRole } = {},
) {
  const db = t.deps.database.db;
  const wav = await makeAudio(dir, 'wav', 1, `${randomUUID()}.wav`);
  const me = await buildUser(db, { name: 'Mia' });
  const bandOwner = await buildUser(db, { name: 'Bo' });
  const mine = await buildProject(db, me.id, { name: 'Night Drive' });
  const band = await buildProject(db, bandOwner.id, { name: 'Band Demos' });
  await addMember(db, { projectId: band.project.id }, me.id, bandRole);
  const on = (p: typeof mine) => ({ projectId: p.project.id, branchId: p.branch.id });
  const deps = depsOf(t);
  const take = (p: typeof mine, message: string) =>
    buildVersion(deps, on(p), { file: wav, processed: true, overrides: { message } });
  const mine1 = await take(mine, 'First mix');
  const band1 = await take(band, 'Band take');
  const mine2 = await take(mine, 'Second mix');
  const as = api(t, me.cookie);
  const collection = (await as.post('/api/collections', { name: 'For the label' })).json<{
    id: string;
  }>();
  const itemIds: string[] = [];
  for (const version of [mine1, band1, mine2]) {
    const added = await as.post(`/api/collections/${collection.id}/items`, {
      version_id: version.id,
    });
    expect(added.statusCode, added.body).toBe(201);
    itemIds.push(added.json<{ id: string }>().id);
  }
  const other = (await as.post('/api/collections', { name: 'Other' })).json<{ id: string }>();
  const otherItem = (
    await as.post(`/api/collections/${other.id}/items`, { version_id: mine1.id })
  ).json<{ id: string }>();
  return {
    me,
    bandOwner,
    mine,
    band,
    versions: [mine1, band1, mine2],
    collection,
    itemIds,
    otherItem,
    as,
  };
}

/** Shares a collection as `as` and answers the links made. */
export async function shareCollection(
  as: ReturnType<typeof api>,
  collectionId: string,
  body: object = { name: 'For the label' },
): Promise<CollectionLink[]> {
  const made = await as.post(`/api/collections/${collectionId}/links`, body);
  expect(made.statusCode, made.body).toBe(201);
  return made.json<{ links: CollectionLink[] }>().links;
}
