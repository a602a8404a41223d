import { describeWrite } from './audit-capture';

describe('describeWrite', () => {
  it('names the resource a route ending in a parameter acts on', () => {
    expect(describeWrite('PATCH', '/api/v2/policies/:id', { id: 'pol-1' })).toEqual({
      resourceType: 'policies',
      resourceId: 'pol-1',
      action: 'update',
    });
    expect(describeWrite('DELETE', '/api/v2/organizations/:name', { name: 'acme' })).toEqual({
      resourceType: 'organizations',
      resourceId: 'acme',
      action: 'destroy',
    });
  });

  it('takes what a create made from the resource it answered with', () => {
    expect(
      describeWrite(
        'POST',
        '/api/v2/organizations/:org/workspaces',
        { org: 'acme' },
        { type: 'workspaces', id: 'ws-1' },
      ),
    ).toEqual({ resourceType: 'workspaces', resourceId: 'ws-1', action: 'create' });
    expect(describeWrite('POST', '/api/v2/organizations/:org/workspaces', { org: 'acme' })).toEqual({
      resourceType: 'workspaces',
      resourceId: null,
      action: 'create',
    });
  });

  it('reads actions and relationship changes as what they do to the resource before them', () => {
    expect(describeWrite('POST', '/api/v2/admin/users/:id/actions/suspend', { id: 'user-1' })).toEqual({
      resourceType: 'users',
      resourceId: 'user-1',
      action: 'suspend',
    });
    expect(
      describeWrite('DELETE', '/api/v2/policy-sets/:id/relationships/workspaces', { id: 'polset-1' }),
    ).toEqual({ resourceType: 'policy-sets', resourceId: 'polset-1', action: 'remove-workspaces' });
    expect(describeWrite('PATCH', '/api/v2/teams/:id/relationships/users', { id: 'team-1' }).action).toBe(
      'replace-users',
    );
  });

  it('reads an executor’s calls as actions on the resource before them', () => {
    expect(describeWrite('POST', '/api/v2/agent/jobs/:id/finish', { id: 'job-1' })).toEqual({
      resourceType: 'jobs',
      resourceId: 'job-1',
      action: 'finish',
    });
    expect(describeWrite('POST', '/api/v2/agent/jobs/claim', {})).toEqual({
      resourceType: 'jobs',
      resourceId: null,
      action: 'claim',
    });
    expect(describeWrite('POST', '/api/v2/agent/register', {})).toEqual({
      resourceType: 'agents',
      resourceId: null,
      action: 'register',
    });
  });

  it('never keeps a capability carried in the path', () => {
    expect(describeWrite('PUT', '/uploads/:token', { token: 'signed.secret' })).toEqual({
      resourceType: 'uploads',
      resourceId: null,
      action: 'update',
    });
  });

  it('describes routes outside the API prefix and routes that matched nothing', () => {
    expect(describeWrite('POST', '/admin/initial-admin-user', {})).toEqual({
      resourceType: 'initial-admin-user',
      resourceId: null,
      action: 'create',
    });
    expect(describeWrite('POST', '(unmatched)', {}).resourceType).toBe('(unmatched)');
  });
});
