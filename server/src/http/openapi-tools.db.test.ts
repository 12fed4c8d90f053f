import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import openapiTS, { astToString } from 'openapi-typescript';
import { createTestApp, type TestApp } from '../../test/test-app';

const run = promisify(execFile);
const serverDir = path.resolve(import.meta.dirname, '../..');
const bin = (name: string) => path.resolve(serverDir, '../node_modules/.bin', name);

/** The served document checked by standard outside tools, as an API client's author would. */
describe('the OpenAPI document, checked by outside tools', () => {
  let t: TestApp;
  let documentPath: string;
  let document: Record<string, unknown>;
  beforeAll(async () => {
    t = await createTestApp();
    const response = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    document = response.json();
    documentPath = path.join(t.dir, 'openapi.json');
    fs.writeFileSync(documentPath, response.body);
  });
  afterAll(() => t.close());

  it('passes `redocly lint` with the recommended rules: no errors, no warnings', async () => {
    const result = await run(
      bin('redocly'),
      ['lint', documentPath, '--config', path.join(serverDir, 'redocly.yaml'), '--format', 'json'],
      { cwd: t.dir, env: { ...process.env, REDOCLY_TELEMETRY: 'off', NO_COLOR: '1' } },
    ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
    const report = JSON.parse(result.stdout) as {
      totals: { errors: number; warnings: number };
      problems: { ruleId: string; message: string; location: { pointer: string }[] }[];
    };
    const problems = report.problems.map(
      (p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? '?'}`,
    );
    expect(problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 60_000);

  it('generates a typed client with openapi-typescript that compiles and has every operation', async () => {
    const ast = await openapiTS(document as never);
    const source = astToString(ast);
    const dir = fs.mkdtempSync(path.join(t.dir, 'generated-'));
    fs.writeFileSync(path.join(dir, 'api.d.ts'), source);
    // A caller's code written against the generated types: it compiles only if the document
    // describes these operations, parameters and bodies.
    fs.writeFileSync(
      path.join(dir, 'use.ts'),
      [
        "import type { operations, paths } from './api';",
        "type Project = paths['/api/projects/{projectId}']['get']['responses'][200]['content']['application/json'];",
        "const project: Project = { id: 'p', name: 'n', description: null, is_private: true, created_at: '', updated_at: '', owner_id: 'u', listed: false, role: 'owner', branches: [] };",
        "type Update = operations['updateProject']['requestBody'];",
        "const update: NonNullable<Update>['content']['application/json'] = { name: 'New name' };",
        "type Upload = operations['uploadVersion']['requestBody'];",
        "type UploadForm = NonNullable<Upload>['content']['multipart/form-data'];",
        'const form: Partial<UploadForm> = {};',
        'export { project, update, form };',
      ].join('\n'),
    );
    const operationIds = [...source.matchAll(/^ {4}([A-Za-z0-9]+): \{$/gm)].map((m) => m[1]);
    expect(operationIds.length).toBeGreaterThan(80);
    await run(
      bin('tsc'),
      [
        '--noEmit',
        '--strict',
        '--skipLibCheck',
        '--target',
        'es2022',
        '--module',
        'esnext',
        '--moduleResolution',
        'bundler',
        path.join(dir, 'use.ts'),
      ],
      { cwd: dir },
    ).catch((error: { stdout?: string }) => {
      throw new Error(`the generated types do not compile:\n${error.stdout ?? ''}`);
    });
  }, 60_000);
});
