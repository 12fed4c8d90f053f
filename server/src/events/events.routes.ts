import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { AUTH_MESSAGES, endpoints } from '@takes/contract';
import { Unauthenticated } from '../errors';
import { route } from '../http/route';
import type { AccessPolicy } from '../modules/access';
import type { AuthService } from '../modules/auth/auth.service';
import { toFetchHeaders } from '../modules/auth/fetch-bridge';
import type { OpenedLink, SharingService } from '../modules/sharing/sharing.service';
import type { ActivityLiveEvent, EventBus, LiveEvent } from './bus';

/** The heartbeat the issue asks for; a test passes a short one. */
export const HEARTBEAT_MS = 25_000;
/** How long a browser waits before reconnecting a dropped stream (the `retry:` hint). */
export const RETRY_MS = 3_000;

/** Who a stream is for: a signed-in person, or a share link's visitor. */
type Subscriber =
  | { kind: 'user'; userId: string; headers: Headers }
  | { kind: 'link'; hash: string; ip: string; cookies: string | undefined };

/** What a browser tab is told: which of its queries to refresh. */
type Hint =
  | Pick<ActivityLiveEvent, 'type' | 'activityId' | 'kind' | 'projectId' | 'repoId' | 'versionId'>
  | Pick<ActivityLiveEvent, 'type' | 'kind' | 'versionId'>;

/**
 * `GET /api/events`: one Server-Sent Events stream per browser tab. A signed-in caller hears of
 * the projects and repositories they can see (asked of the access policy for each event, so a
 * removed member stops hearing at once) and of events naming them. A share link's visitor
 * (`?link=KEY`) hears only of comments on that link's version, and only while the link is
 * valid. Each event is `data: {json}` with the query hints; `: ping` every 25 s keeps proxies
 * and the browser from closing an idle stream.
 */
export const eventRoutes =
  (deps: {
    bus: EventBus;
    access: AccessPolicy;
    sharing: SharingService;
    auth: AuthService;
    heartbeatMs?: number;
  }): FastifyPluginAsync =>
  (app) => {
    const open = new Set<() => void>();
    // Endless responses would hold the server's close forever: end them first.
    app.addHook('preClose', (done) => {
      for (const end of open) end();
      done();
    });

    route(app, endpoints.activity.streamEvents, {}, async (request, reply) => {
      let subscriber: Subscriber;
      const key = request.query.link;
      if (key) {
        // The key is the credential: a wrong or revoked one 404, an expired one 410.
        await deps.sharing.open(key, request.ip, request.headers.cookie);
        subscriber = { kind: 'link', hash: key, ip: request.ip, cookies: request.headers.cookie };
      } else {
        const headers = toFetchHeaders(request);
        const user = await deps.auth.currentUser(headers);
        if (!user) throw new Unauthenticated(AUTH_MESSAGES.notAuthenticated);
        subscriber = { kind: 'user', userId: user.id, headers };
      }
      stream(request, reply, subscriber);
      return reply;
    });

    function stream(request: FastifyRequest, reply: FastifyReply, subscriber: Subscriber): void {
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        ...(reply.getHeaders() as Record<string, string>),
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        // Proxies (nginx) must pass each event on at once.
        'x-accel-buffering': 'no',
        ...(subscriber.kind === 'link'
          ? { 'referrer-policy': 'no-referrer', 'x-robots-tag': 'noindex, nofollow' }
          : {}),
      });
      // The stream is meant to be quiet between events: no idle timeout (the heartbeat finds
      // a vanished client).
      request.raw.socket?.setTimeout(0);
      res.write(`retry: ${RETRY_MS}\n: connected\n\n`);

      let ended = false;
      // Events go out in order, one access check at a time.
      let queue: Promise<void> = Promise.resolve();
      const unsubscribe = deps.bus.subscribe((event) => {
        queue = queue.then(() => deliver(event)).catch(() => end());
      });
      // The heartbeat also asks again whether the stream may go on: a session signed out or a
      // link revoked or expired since it opened ends it.
      const heartbeat = setInterval(() => {
        if (ended) return;
        res.write(': ping\n\n');
        queue = queue
          .then(async () => {
            if (!ended && !(await stillValid(subscriber))) end();
          })
          .catch(() => end());
      }, deps.heartbeatMs ?? HEARTBEAT_MS);
      heartbeat.unref();

      const end = () => {
        if (ended) return;
        ended = true;
        clearInterval(heartbeat);
        unsubscribe();
        open.delete(end);
        if (!res.writableEnded) res.end();
      };
      open.add(end);
      // The client went away (or the response ended).
      res.on('close', end);
      res.on('error', end);

      async function deliver(event: LiveEvent): Promise<void> {
        if (ended) return;
        // An admin disabled this account: its streams end at once, whatever they were for.
        if (event.type === 'account.disabled') {
          if (subscriber.kind === 'user' && subscriber.userId === event.userId) end();
          return;
        }
        const hint = await hintFor(subscriber, event);
        if (hint === 'end') return end();
        if (hint && !ended) res.write(`data: ${JSON.stringify(hint)}\n\n`);
      }
    }

    async function stillValid(subscriber: Subscriber): Promise<boolean> {
      if (subscriber.kind === 'user')
        return (await deps.auth.currentUser(subscriber.headers))?.id === subscriber.userId;
      try {
        await deps.sharing.open(subscriber.hash, subscriber.ip, subscriber.cookies);
        return true;
      } catch {
        return false;
      }
    }

    /** What this subscriber may be told of the event, nothing, or 'end' (their link died). */
    async function hintFor(
      subscriber: Subscriber,
      event: ActivityLiveEvent,
    ): Promise<Hint | null | 'end'> {
      if (subscriber.kind === 'link') {
        // Comments and the review status are what a link's page shows that others change.
        const shown = event.kind.startsWith('comment.') || event.kind === 'version.review_changed';
        if (!shown || !event.versionId) return null;
        let opened: OpenedLink;
        try {
          opened = await deps.sharing.open(subscriber.hash, subscriber.ip, subscriber.cookies);
        } catch {
          // Revoked, expired or gone since the page opened: the stream stops here.
          return 'end';
        }
        if (opened.version.id !== event.versionId) return null;
        // Only "refresh the comments" (or the status): the page refetches through its link,
        // which shows what the link may see (never a team-only comment).
        return { type: event.type, kind: event.kind, versionId: event.versionId };
      }
      const { userId } = subscriber;
      const named = event.userIds?.includes(userId) ?? false;
      const sees = event.projectId
        ? (await deps.access.projectRole(userId, event.projectId)) !== null
        : event.repoId
          ? (await deps.access.repoRole(userId, event.repoId)) !== null
          : false;
      if (!sees && !named) return null;
      return {
        type: event.type,
        activityId: event.activityId,
        kind: event.kind,
        projectId: event.projectId,
        repoId: event.repoId,
        versionId: event.versionId,
      };
    }
    return Promise.resolve();
  };
