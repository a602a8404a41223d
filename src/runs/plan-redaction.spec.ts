import { PlanJson, redactByMask, redactPlanJson } from './plan-redaction';

describe('redactByMask', () => {
  it('nulls what the mask marks, member by member and element by element, and keeps the rest', () => {
    const value = { name: 'db', password: 'hunter2', tags: ['a', 'secret-b'], nested: { key: 'k', id: 1 } };
    const mask = { password: true, tags: [false, true], nested: { key: true } };
    expect(redactByMask(value, mask)).toEqual({
      name: 'db',
      password: null,
      tags: ['a', null],
      nested: { key: null, id: 1 },
    });
    expect(redactByMask(value, true)).toBeNull();
    expect(redactByMask(value, false)).toEqual(value);
    expect(redactByMask(value, {})).toEqual(value);
    expect(redactByMask('x', { a: true })).toBe('x');
  });
});

describe('redactPlanJson', () => {
  const plan: PlanJson = {
    format_version: '1.2',
    terraform_version: '1.9.0',
    variables: { token: { value: 's3cr3t' }, region: { value: 'eu-west-1' } },
    planned_values: {
      outputs: {
        password: { sensitive: true, value: 'p@ss' },
        url: { sensitive: false, value: 'https://x' },
      },
      root_module: {
        resources: [
          {
            address: 'db.main',
            values: { user: 'admin', password: 'p@ss' },
            sensitive_values: { password: true },
          },
        ],
        child_modules: [
          {
            address: 'module.net',
            resources: [
              { address: 'module.net.k.this', values: { key: 'pk' }, sensitive_values: { key: true } },
            ],
          },
        ],
      },
    },
    resource_changes: [
      {
        address: 'db.main',
        change: {
          actions: ['update'],
          before: { user: 'admin', password: 'old' },
          after: { user: 'admin', password: 'p@ss' },
          after_unknown: {},
          before_sensitive: { password: true },
          after_sensitive: { password: true },
        },
      },
    ],
    resource_drift: [
      {
        address: 'db.main',
        change: {
          before: { password: 'older' },
          after: { password: 'old' },
          before_sensitive: true,
          after_sensitive: { password: true },
        },
      },
    ],
    output_changes: {
      password: {
        actions: ['create'],
        before: null,
        after: 'p@ss',
        before_sensitive: false,
        after_sensitive: true,
      },
      url: {
        actions: ['create'],
        before: null,
        after: 'https://x',
        before_sensitive: false,
        after_sensitive: false,
      },
    },
    prior_state: {
      format_version: '1.0',
      values: {
        outputs: { password: { sensitive: true, value: 'old' } },
        root_module: {
          resources: [
            { address: 'db.main', values: { password: 'old' }, sensitive_values: { password: true } },
          ],
        },
      },
    },
    deferred_changes: [
      {
        reason: 'provider_config_unknown',
        resource_change: {
          address: 'x.y',
          change: { after: { secret: 'z' }, after_sensitive: { secret: true } },
        },
      },
    ],
    configuration: {
      root_module: {
        variables: { token: { sensitive: true, default: 'dflt' }, region: { default: 'eu-west-1' } },
      },
    },
    relevant_attributes: [{ resource: 'db.main', attribute: ['password'] }],
  };

  it('nulls every value marked sensitive and leaves the masks and every other value as they were', () => {
    expect(redactPlanJson(plan)).toEqual({
      ...plan,
      variables: { token: { value: null }, region: { value: 'eu-west-1' } },
      planned_values: {
        outputs: {
          password: { sensitive: true, value: null },
          url: { sensitive: false, value: 'https://x' },
        },
        root_module: {
          resources: [
            {
              address: 'db.main',
              values: { user: 'admin', password: null },
              sensitive_values: { password: true },
            },
          ],
          child_modules: [
            {
              address: 'module.net',
              resources: [
                { address: 'module.net.k.this', values: { key: null }, sensitive_values: { key: true } },
              ],
            },
          ],
        },
      },
      resource_changes: [
        {
          address: 'db.main',
          change: {
            actions: ['update'],
            before: { user: 'admin', password: null },
            after: { user: 'admin', password: null },
            after_unknown: {},
            before_sensitive: { password: true },
            after_sensitive: { password: true },
          },
        },
      ],
      resource_drift: [
        {
          address: 'db.main',
          change: {
            before: null,
            after: { password: null },
            before_sensitive: true,
            after_sensitive: { password: true },
          },
        },
      ],
      output_changes: {
        password: {
          actions: ['create'],
          before: null,
          after: null,
          before_sensitive: false,
          after_sensitive: true,
        },
        url: {
          actions: ['create'],
          before: null,
          after: 'https://x',
          before_sensitive: false,
          after_sensitive: false,
        },
      },
      prior_state: {
        format_version: '1.0',
        values: {
          outputs: { password: { sensitive: true, value: null } },
          root_module: {
            resources: [
              { address: 'db.main', values: { password: null }, sensitive_values: { password: true } },
            ],
          },
        },
      },
      deferred_changes: [
        {
          reason: 'provider_config_unknown',
          resource_change: {
            address: 'x.y',
            change: { after: { secret: null }, after_sensitive: { secret: true } },
          },
        },
      ],
      configuration: {
        root_module: {
          variables: { token: { sensitive: true, default: null }, region: { default: 'eu-west-1' } },
        },
      },
    });
    expect(JSON.stringify(redactPlanJson(plan))).not.toMatch(/p@ss|old|s3cr3t|dflt|"pk"|"z"/);
  });

  it('leaves a plan without sensitive values, or without the usual members, unchanged', () => {
    const plain: PlanJson = {
      format_version: '1.2',
      resource_changes: [],
      prior_state: { format_version: '1.0' },
    };
    expect(redactPlanJson(plain)).toEqual(plain);
    expect(redactPlanJson([])).toEqual([]);
    expect(redactPlanJson('text')).toBe('text');
  });
});
