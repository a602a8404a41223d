import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import request from 'supertest';
import { ClaimAnswer } from '../../src/runs/protocol/agent-protocol.types';
import { Actor, bootstrapAdmin } from '../helpers/fixtures';
import { startApp, TestApp } from '../helpers/test-app';
import { policyWithCode, setOf } from '../policy-checks/check-fixtures';
import { protocolHelpers } from '../policy-checks/protocol-helpers';
import { createRun, Executor } from './run-fixtures';

jest.setTimeout(120_000);

const long = (n: number) => 'x'.repeat(n);

/**
 * A 422 with one error per problem, in the order the server found them. The pointers are those of
 * JSON:API attributes, as the body validation writes them, though the protocol's bodies are plain.
 */
const invalid = (...problems: [string, string][]) => ({
  errors: problems.map(([detail, member]) => ({
    status: '422',
    title: 'invalid attribute',
    detail,
    source: { pointer: `/data/attributes${member}` },
  })),
});

/**
 * The executor protocol's wire shape: what the OpenAPI document shows for registration, the claim
 * and the report, and the 422s bad reports get (the same for every release of the declaration).
 */
describe('the executor protocol on the wire', () => {
  let t: TestApp;
  let admin: Actor;

  beforeAll(async () => {
    t = await startApp();
    admin = await bootstrapAdmin(t);
  });
  afterAll(() => t.close());

  const { setting, planned, claimEvaluation } = protocolHelpers(() => ({ t, admin }));

  /** What a claim answer has beside the declaration, or lacks, or has of another type. */
  const undeclared = (answer: unknown) =>
    validateSync(plainToInstance(ClaimAnswer, answer), { whitelist: true, forbidNonWhitelisted: true });

  async function refusals(ex: Executor, jobId: string, bodies: Record<string, unknown>[]) {
    const answers = [];
    for (const body of bodies) answers.push((await ex.finish(jobId, body).expect(422)).body);
    return answers;
  }

  it('hands out a plan job as declared, and refuses bad reports of it with 422s that name each problem', async () => {
    const { ws, ex } = await setting();
    await createRun(admin, ws);
    const claimed = (await ex.claim().expect(200)).body;
    expect(undeclared(claimed)).toEqual([]);
    const job = claimed.job;
    expect(
      await refusals(ex, job.id, [
        {},
        { status: 'done' },
        { status: null },
        { status: 'finished', 'has-changes': 'yes', 'resource-additions': -1, 'resource-changes': 1.5 },
        { status: 'finished', 'has-changes': null, 'resource-imports': '2' },
        { status: 'errored', 'error-message': long(10_001) },
        { status: 'errored', 'error-message': 7 },
      ]),
    ).toEqual([
      invalid(['Status must be finished or errored', '/status']),
      invalid(['Status must be finished or errored', '/status']),
      invalid(['Status must be finished or errored', '/status']),
      invalid(
        ['Has changes must be a boolean value', '/has-changes'],
        ['Resource additions must not be less than 0', '/resource-additions'],
        ['Resource changes must be an integer number', '/resource-changes'],
      ),
      invalid(
        ['Has changes must be a boolean value', '/has-changes'],
        ['Resource imports must be an integer number', '/resource-imports'],
      ),
      invalid(['Error message is too long (maximum is 10000 characters)', '/error-message']),
      invalid(['Error message must be a string', '/error-message']),
    ]);
    await ex.finish(job.id, { status: 'finished' }).expect(204);
  });

  it('hands out a policy evaluation as declared, and refuses bad reports of it with 422s that name each problem', async () => {
    const { org, ws, ex } = await setting();
    const policy = await policyWithCode(admin, org, { name: 'lint', level: 'advisory', code: 'allow' });
    await setOf(admin, org, 'global', [policy], { global: true });
    await planned(ex, ws);
    const job = await claimEvaluation(ex);
    expect(undeclared({ job })).toEqual([]);
    const many = Array.from({ length: 501 }, () => ({ policy: 'lint', status: 'passed' }));
    expect(
      await refusals(ex, job.id, [
        { status: 'finished', results: 'lint passed' },
        { status: 'finished', results: many },
        { status: 'finished', results: [{ policy: 5, status: 'ok' }] },
        {
          status: 'finished',
          results: [
            { policy: long(129), status: 'passed', 'enforcement-level': long(33), output: long(16_385) },
          ],
        },
        { status: 'finished', results: ['lint'] },
      ]),
    ).toEqual([
      invalid(['Results must be an array', '/results']),
      invalid(['Results has too many items (maximum is 500)', '/results']),
      invalid(
        ['Results 0 policy must be a string', '/results/0/policy'],
        ['Results 0 status must be passed or failed', '/results/0/status'],
      ),
      invalid(
        ['Results 0 policy is too long (maximum is 128 characters)', '/results/0/policy'],
        [
          'Results 0 enforcement level is too long (maximum is 32 characters)',
          '/results/0/enforcement-level',
        ],
        ['Results 0 output is too long (maximum is 16384 characters)', '/results/0/output'],
      ),
      invalid([
        'Results 0 each value in nested property results must be either object or array',
        '/results/0',
      ]),
    ]);
    await ex
      .finish(job.id, { status: 'finished', results: [{ policy: 'lint', status: 'passed' }] })
      .expect(204);
  });

  it('documents registration, the claim and the report from the declaration', async () => {
    const doc = (await request(t.origin).get('/docs-json').expect(200)).body;
    const json = (op: typeof doc) => op.content['application/json'].schema;
    const register = doc.paths['/api/v2/agent/register'].post;
    expect(json(register.requestBody)).toEqual({
      type: 'object',
      required: ['name'],
      properties: { name: { type: 'string', minLength: 1, maxLength: 255, example: 'host-1' } },
    });
    expect(json(register.responses['201'])).toMatchObject({
      required: [
        'agent-id',
        'pool-id',
        'organization',
        'poll-interval-seconds',
        'heartbeat-interval-seconds',
        'claim-wait-max-seconds',
      ],
    });

    const claim = json(doc.paths['/api/v2/agent/jobs/claim'].post.responses['200']);
    const job = claim.properties.job;
    expect(claim.required).toEqual(['job']);
    expect(job.properties.kind).toEqual({ type: 'string', enum: ['plan', 'apply', 'policy-evaluation'] });
    expect(job.properties['target-addrs']).toEqual({
      type: 'array',
      items: { type: 'string' },
      description: 'Plan with one `-target=ADDR` per address',
    });
    expect(job.properties['terraform-version']).toMatchObject({ type: 'string', nullable: true });
    expect(job.required).not.toContain('variables');
    expect(job.required).not.toContain('policy-evaluation');
    expect(job.properties.links.required).toEqual(['configuration']);
    expect(job.properties.links.properties.state).toEqual({ type: 'string', nullable: true });
    expect(job.properties.variables.items.properties.category).toMatchObject({ enum: ['terraform', 'env'] });
    const evaluation = job.properties['policy-evaluation'];
    expect(Object.keys(evaluation.properties)).toEqual([
      'id',
      'policy-set-id',
      'policy-set-name',
      'policy-kind',
      'policy-tool-version',
      'bundle',
      'policies',
      'parameters',
    ]);
    expect(evaluation.properties.parameters.items).toEqual({
      type: 'object',
      required: ['key', 'value', 'sensitive'],
      properties: { key: { type: 'string' }, value: { type: 'string' }, sensitive: { type: 'boolean' } },
    });

    expect(json(doc.paths['/api/v2/agent/jobs/{id}/heartbeat'].post.responses['200'])).toEqual({
      type: 'object',
      required: ['status'],
      properties: { status: { type: 'string', enum: ['running', 'canceled'] } },
    });

    const finish = doc.paths['/api/v2/agent/jobs/{id}/finish'].post;
    const count = { type: 'integer', minimum: 0 };
    expect(json(finish.requestBody)).toEqual({
      type: 'object',
      required: ['status'],
      properties: {
        status: { type: 'string', enum: ['finished', 'errored'] },
        'error-message': { type: 'string', maxLength: 10_000 },
        'has-changes': { type: 'boolean' },
        'resource-additions': count,
        'resource-changes': count,
        'resource-destructions': count,
        'resource-imports': count,
        results: {
          type: 'array',
          maxItems: 500,
          description: 'Policy-evaluation jobs only',
          items: {
            type: 'object',
            required: ['policy', 'status'],
            properties: {
              policy: { type: 'string', maxLength: 128 },
              status: { type: 'string', enum: ['passed', 'failed'] },
              'enforcement-level': {
                type: 'string',
                maxLength: 32,
                description: 'Versioned sets only: their own configuration sets the levels',
              },
              output: { type: 'string', maxLength: 16_384 },
            },
          },
        },
      },
    });
    // With next=true the report answers as a claim does.
    expect(json(finish.responses['200'])).toEqual(claim);
    expect(finish.responses['204'].description).toMatch(/^Recorded/);
    expect(finish.parameters).toContainEqual(
      expect.objectContaining({
        name: 'next',
        in: 'query',
        required: false,
        schema: { type: 'string', enum: ['true', 'false'] },
      }),
    );
  });
});
