import type { z } from 'zod';
import type { ApiClient } from './client';
import { completeBounce, publishBounce, uploadBounceFile } from './endpoints/bounces';
import type { Bounce, PublishResponse, publishBodySchema } from './repos';

/**
 * Publishing a bounce, the one three-step flow the web app, the CLI and the tests share:
 * 1. POST /api/bounces/publish -> where to upload, with a single-use token;
 * 2. PUT the file there with the token (each caller sends the bytes its own way, for progress);
 * 3. POST /api/bounces/complete -> the bounce, attached to its commit and processing.
 */

export type PublishStep = 'publish' | 'upload' | 'complete';

/** A step that failed, with what it failed with (an ApiError, a network error…) as the cause. */
export class PublishStepError extends Error {
  override readonly name = 'PublishStepError';
  constructor(
    readonly step: PublishStep,
    override readonly cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : `The ${step} step failed`);
  }
}

export interface PublishBounceInput {
  /** Repository, branch, file name, content type, size and (optionally) the commit. */
  target: z.input<typeof publishBodySchema>;
  /** The bounce's title; the file name's when absent. */
  title?: string;
  /** Step 2: sends the file to the upload the server handed out. */
  upload: (upload: PublishResponse) => Promise<void>;
}

export async function publishBounceFile(
  client: ApiClient,
  { target, title, upload }: PublishBounceInput,
): Promise<Bounce> {
  const step = async <T>(name: PublishStep, run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      throw new PublishStepError(name, error);
    }
  };
  const started = await step('publish', () => client.call(publishBounce, { body: target }));
  await step('upload', () => upload(started));
  const { bounce } = await step('complete', () =>
    client.call(completeBounce, {
      body: {
        repo_id: target.repo_id,
        branch: target.branch,
        filename: target.filename,
        ...(title ? { title } : {}),
        ...(target.content_type ? { mime: target.content_type } : {}),
        ...(target.size !== undefined ? { size: target.size } : {}),
        upload_id: started.upload_id,
      },
    }),
  );
  return bounce;
}

/** Step 2 through the client itself: the whole body at once (tests, small files). */
export function uploadWith(
  client: ApiClient,
  data: NonNullable<RequestInit['body']>,
  contentType = 'application/octet-stream',
): (upload: PublishResponse) => Promise<void> {
  return async (upload) => {
    await client.call(uploadBounceFile, {
      params: { uploadId: upload.upload_id },
      data,
      contentType,
      headers: { 'x-upsert-token': upload.upload_token },
    });
  };
}
