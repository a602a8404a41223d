import request from 'supertest';
import { startApp, TestApp } from '../helpers/test-app';

interface Operation {
  responses: Record<string, unknown>;
  requestBody?: { content: Record<string, { schema: unknown }> };
  tags?: string[];
}

describe('OpenAPI document for tags', () => {
  let t: TestApp;
  let paths: Record<string, Record<string, Operation>>;

  beforeAll(async () => {
    t = await startApp();
    paths = (await request(t.origin).get('/docs-json').expect(200)).body.paths;
  });
  afterAll(() => t.close());

  it.each([
    ['/api/v2/organizations/{org}/reserved-tag-keys', 'get', '200'],
    ['/api/v2/organizations/{org}/reserved-tag-keys', 'post', '201'],
    ['/api/v2/reserved-tag-keys/{id}', 'get', '200'],
    ['/api/v2/reserved-tag-keys/{id}', 'patch', '200'],
    ['/api/v2/reserved-tag-keys/{id}', 'delete', '204'],
    ['/api/v2/reserved-tags/{id}', 'patch', '200'],
    ['/api/v2/reserved-tags/{id}', 'delete', '204'],
    ['/api/v2/projects/{id}/tag-bindings', 'get', '200'],
    ['/api/v2/projects/{id}/tag-bindings', 'patch', '200'],
    ['/api/v2/projects/{id}/effective-tag-bindings', 'get', '200'],
    ['/api/v2/workspaces/{id}/tag-bindings', 'get', '200'],
    ['/api/v2/workspaces/{id}/tag-bindings', 'patch', '200'],
    ['/api/v2/workspaces/{id}/effective-tag-bindings', 'get', '200'],
  ])('documents %s %s with its %s answer and its errors', (path, method, status) => {
    const op = paths[path]?.[method];
    expect(op).toBeDefined();
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining([status, '401', '404']));
  });

  it('documents the tag-bindings relationship of project and workspace writes as key/value items', () => {
    for (const [path, method] of [
      ['/api/v2/organizations/{org}/projects', 'post'],
      ['/api/v2/projects/{id}', 'patch'],
      ['/api/v2/organizations/{org}/workspaces', 'post'],
      ['/api/v2/workspaces/{id}', 'patch'],
    ]) {
      const schema = JSON.stringify(paths[path][method].requestBody?.content);
      expect(schema).toContain(
        '"tag-bindings":{"type":"object","required":["data"],"properties":{"data":{"type":"array","maxItems":10',
      );
    }
  });
});
