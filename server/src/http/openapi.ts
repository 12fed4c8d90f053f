import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  ERROR_CODES,
  errorBodySchema,
  isZodSchema,
  openApiParamName,
  openApiPath,
  type AuthScheme,
  type Endpoint,
  type ResponseSpec,
} from '@takes/contract';

/**
 * The OpenAPI 3.1 document, built from the endpoint descriptors the routes were registered from
 * (never from hand-written YAML), and a self-hosted docs page at /api/docs.
 */

type JsonSchema = Record<string, unknown>;
type Operation = Record<string, unknown>;

const REASONS: Record<number, string> = {
  400: 'The request is not valid; `error` says what to fix.',
  401: 'Not signed in, or the credentials have ended.',
  403: 'Signed in, but not allowed to do this.',
  404: 'Not found (or not visible to the caller).',
  409: 'Conflicts with the current state.',
  410: 'Expired or already used.',
  413: 'Over the size limit.',
  415: 'Not a kind of content Takes accepts.',
  416: 'The requested range is not satisfiable.',
  429: 'Too many attempts; try again later.',
  500: 'Something failed on the server.',
  502: 'A service Takes relies on failed.',
  503: 'Not available right now.',
};

/** The tags, one per module, in the order the docs list them. */
const TAGS: Record<string, string> = {
  health: 'Liveness and readiness.',
  auth: 'Accounts, sessions, sign-in by password, emailed code or provider.',
  desktop: 'Sign-in and tokens for the desktop app and the `takes` CLI.',
  demo: 'Throw-away demo accounts.',
  profiles: 'The signed-in user’s profile and avatar.',
  projects: 'Projects and their branches.',
  versions: 'Versions of a track: upload, processing, playback and download.',
  sharing: 'Private share links and what a link opens.',
  comments: 'Timestamped feedback on versions.',
  repos: 'Repositories, branches and commits published from the desktop side.',
  bounces: 'Bounces: rendered mixes attached to commits, and their uploads.',
  'audio-git': 'The desktop app’s repository API.',
  workspace: 'Dashboard figures, search and the instance debug page.',
  exports: 'Export my data: a zip of everything you own, downloadable for a day.',
  site: 'The public site: blog, contact and desktop downloads.',
  storage: 'Signed object URLs of the local object store.',
};

const SECURITY_SCHEMES = {
  session: {
    type: 'apiKey',
    in: 'cookie',
    name: 'takes.session_token',
    description:
      'The browser session cookie set by sign-in (`__Secure-takes.session_token` over HTTPS).',
  },
  desktopToken: {
    type: 'http',
    scheme: 'bearer',
    description: 'An access token of the desktop app or the `takes` CLI (POST /api/desktop/token).',
  },
  uploadToken: {
    type: 'apiKey',
    in: 'header',
    name: 'x-upsert-token',
    description: 'The single-use token of one bounce upload, from POST /api/bounces/publish.',
  },
  shareKey: {
    type: 'apiKey',
    in: 'header',
    name: 'x-share-key',
    description:
      'A share link’s key. It travels in the path (`{hash}`) of the link’s operations; whoever ' +
      'holds the link may use what it opens. The header form is not read.',
  },
} satisfies Record<AuthScheme, JsonSchema>;

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const result = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
  }) as JsonSchema;
  delete result.$schema;
  return result;
}

/** The error body, its `code` listing every code with its status and meaning. */
function errorBodyJsonSchema(): JsonSchema {
  const schema = jsonSchema(errorBodySchema, 'output');
  const properties = schema.properties as Record<string, JsonSchema>;
  const listed = Object.entries(ERROR_CODES)
    .map(([code, { status, meaning }]) => `- \`${code}\` (${status}): ${meaning}`)
    .join('\n');
  properties.code = {
    ...properties.code,
    description: `${typeof properties.code?.description === 'string' ? properties.code.description : ''}\n\n${listed}`,
  };
  return schema;
}

const errorContent = {
  'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } },
};
const binarySchema = { type: 'string', format: 'binary' };

function parameters(endpoint: Endpoint, ranged: boolean): JsonSchema[] {
  const list: JsonSchema[] = [];
  for (const [where, schema] of [
    ['path', endpoint.params],
    ['query', endpoint.query],
  ] as const) {
    if (!schema) continue;
    const object = jsonSchema(schema, 'input');
    const properties = (object.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((object.required ?? []) as string[]);
    for (const [name, property] of Object.entries(properties)) {
      const { description, ...rest } = property;
      list.push({
        name: where === 'path' ? openApiParamName(name) : name,
        in: where,
        required: where === 'path' || required.has(name),
        ...(typeof description === 'string' ? { description } : {}),
        schema: rest,
      });
    }
  }
  for (const [name, header] of Object.entries(endpoint.headers ?? {})) {
    list.push({
      name,
      in: 'header',
      required: header.required ?? false,
      description: header.description,
      schema: { type: 'string' },
    });
  }
  if (ranged) {
    list.push({
      name: 'Range',
      in: 'header',
      required: false,
      description: 'One byte range (`bytes=start-end`); answered with 206 Partial Content.',
      schema: { type: 'string' },
    });
  }
  return list;
}

function requestBody(endpoint: Endpoint): JsonSchema | undefined {
  const body = endpoint.body;
  if (!body) {
    if (endpoint.method === 'GET' || endpoint.method === 'DELETE') return undefined;
    // The typed client sends `{}` with every write that has no fields: a JSON body cannot be
    // sent cross-site without a CORS preflight.
    return {
      required: false,
      description: 'No fields; clients send an empty JSON object.',
      content: { 'application/json': { schema: { type: 'object', maxProperties: 0 } } },
    };
  }
  if (isZodSchema(body)) {
    return {
      required: true,
      content: { 'application/json': { schema: jsonSchema(body, 'input') } },
    };
  }
  if (body.kind === 'multipart') {
    const fields = jsonSchema(body.fields, 'input');
    const properties = { ...(fields.properties as JsonSchema) };
    for (const [name, description] of Object.entries(body.files)) {
      properties[name] = { ...binarySchema, description };
    }
    return {
      required: true,
      content: {
        'multipart/form-data': {
          schema: { type: 'object', properties, required: [...body.required] },
        },
      },
    };
  }
  return {
    required: true,
    description: body.description,
    content: Object.fromEntries(body.mediaTypes.map((type) => [type, { schema: binarySchema }])),
  };
}

function successResponse(spec: ResponseSpec): JsonSchema {
  if (isZodSchema(spec)) {
    return {
      description: spec.description ?? 'OK',
      content: { 'application/json': { schema: jsonSchema(spec, 'output') } },
    };
  }
  switch (spec.kind) {
    case 'empty':
      return { description: spec.description };
    case 'redirect':
      return {
        description: spec.description,
        headers: { Location: { description: 'Where to go.', schema: { type: 'string' } } },
      };
    case 'text':
      return {
        description: spec.description,
        content: { [spec.mediaType]: { schema: { type: 'string' } } },
      };
    case 'binary': {
      const headers: JsonSchema = {};
      if (spec.ranges) {
        headers['Accept-Ranges'] = { description: '`bytes`.', schema: { type: 'string' } };
      }
      if (spec.attachment) {
        headers['Content-Disposition'] = {
          description: '`attachment` with the file’s name.',
          schema: { type: 'string' },
        };
      }
      return {
        description: spec.description,
        ...(Object.keys(headers).length > 0 ? { headers } : {}),
        content: Object.fromEntries(
          spec.mediaTypes.map((type) => [type, { schema: binarySchema }]),
        ),
      };
    }
  }
}

function operation(endpoint: Endpoint): Operation {
  const responses: JsonSchema = {};
  let ranged = false;
  for (const [status, spec] of Object.entries(endpoint.responses)) {
    if (!spec) continue;
    responses[status] = successResponse(spec);
    if (!isZodSchema(spec) && spec.kind === 'binary' && spec.ranges) {
      ranged = true;
      responses['206'] = {
        description: 'The requested byte range.',
        headers: {
          'Content-Range': { description: '`bytes start-end/size`.', schema: { type: 'string' } },
        },
        content: Object.fromEntries(
          spec.mediaTypes.map((type) => [type, { schema: binarySchema }]),
        ),
      };
    }
  }
  const errors = new Set(endpoint.errors);
  if (ranged) errors.add(416);
  for (const status of [...errors].sort()) {
    responses[String(status)] = {
      description: REASONS[status] ?? 'Refused.',
      content: errorContent,
    };
  }
  const params = parameters(endpoint, ranged);
  const body = requestBody(endpoint);
  return {
    operationId: endpoint.name,
    summary: endpoint.summary,
    ...(endpoint.description ? { description: endpoint.description } : {}),
    tags: [endpoint.tag],
    // The share key is part of the path, so such an operation also admits a request with no
    // credential of its own (the empty alternative): the path is the capability.
    security: [
      ...endpoint.auth.map((scheme) => ({ [scheme]: [] })),
      ...(endpoint.auth.includes('shareKey') ? [{}] : []),
    ],
    ...(params.length > 0 ? { parameters: params } : {}),
    ...(body ? { requestBody: body } : {}),
    responses,
  };
}

/** The whole document for the given endpoints. */
export function buildOpenApiDocument(
  endpoints: readonly Endpoint[],
  options: { publicUrl: string },
): JsonSchema {
  const paths: Record<string, Record<string, Operation>> = {};
  const tags = new Set<string>();
  for (const endpoint of endpoints) {
    const path = openApiPath(endpoint.path);
    paths[path] ??= {};
    paths[path][endpoint.method.toLowerCase()] = operation(endpoint);
    tags.add(endpoint.tag);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Takes API',
      description:
        'Private audio collaboration for music creators. Every error answers with ' +
        '`{ "error": "…", "code": "…" }`: a message written for people, and a stable code ' +
        '(listed in ErrorBody) for programs to branch on.',
      version: '1.0.0',
      license: { name: 'Proprietary', url: `${options.publicUrl}/terms` },
    },
    servers: [{ url: options.publicUrl }],
    tags: Object.keys(TAGS)
      .filter((name) => tags.has(name))
      .concat([...tags].filter((name) => !(name in TAGS)))
      .map((name) => ({ name, description: TAGS[name] ?? name })),
    paths,
    components: {
      securitySchemes: SECURITY_SCHEMES,
      schemas: { ErrorBody: errorBodyJsonSchema() },
    },
  };
}

/** Collects the descriptors of every route registered after this, and serves the document. */
export async function registerOpenApi(
  app: FastifyInstance,
  options: { publicUrl: string },
): Promise<void> {
  const endpoints: Endpoint[] = [];
  app.addHook('onRoute', (route) => {
    const endpoint = route.config?.endpoint;
    if (endpoint && !endpoints.includes(endpoint)) endpoints.push(endpoint);
  });
  let document: JsonSchema | undefined;
  await app.register(swagger, {
    openapi: { info: { title: 'Takes API', version: '1.0.0' } },
    // Every route is documented by buildOpenApiDocument from its descriptor; @fastify/swagger
    // only serves the result (and the docs page reads it), so it converts no route schema itself.
    transform: ({ schema, url }) => ({ schema: { ...schema, hide: true }, url }),
    transformObject: () => (document ??= buildOpenApiDocument(endpoints, options)),
  });
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    uiConfig: { validatorUrl: null },
  });
  app.get('/api/openapi.json', { schema: { hide: true } }, () => app.swagger());
}
