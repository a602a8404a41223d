import type { OpenAPIObject } from '@nestjs/swagger';

/**
 * The areas the explorer (/docs) groups operations by, in the order it shows them, and the
 * controllers' `@ApiTags` each one gathers. An operation whose tag no area names keeps it, after
 * these; one with no tag at all goes under "Other".
 */
const AREAS: { name: string; description: string; tags: readonly string[] }[] = [
  {
    name: 'Authentication',
    description:
      'Getting a token: the first administrator, `POST /api/v2/login`, `terraform login`, and ' +
      'user, team and organization tokens.',
    tags: ['bootstrap', 'tokens', 'cli-login'],
  },
  {
    name: 'Users',
    description: 'Accounts; site administrators add and suspend them.',
    tags: ['users', 'admin users'],
  },
  {
    name: 'Organizations',
    description: 'Organizations, their entitlements and their audit trail.',
    tags: ['organizations', 'audit trail'],
  },
  {
    name: 'Teams and access',
    description: 'Teams, members and team access to workspaces.',
    tags: ['teams', 'team access'],
  },
  { name: 'Projects', description: 'Projects group workspaces.', tags: ['projects'] },
  {
    name: 'Workspaces',
    description: 'Workspaces, locking, tags and reserved tag keys.',
    tags: ['workspaces', 'tag-bindings', 'reserved-tag-keys'],
  },
  {
    name: 'Variables',
    description: 'Workspace variables and variable sets.',
    tags: ['variables', 'variable sets'],
  },
  {
    name: 'Runs',
    description: 'Configuration versions, runs, plans, applies and run triggers.',
    tags: ['runs', 'configuration-versions', 'run triggers'],
  },
  { name: 'State', description: 'State versions and their outputs.', tags: ['state versions'] },
  {
    name: 'Notifications',
    description: 'Notification configurations: webhooks, chat and email for run events.',
    tags: ['notification configurations'],
  },
  {
    name: 'Policies',
    description: 'Policies, policy sets, their versions and policy checks.',
    tags: ['policies', 'policy-sets', 'policy-set-versions', 'policy checks'],
  },
  {
    name: 'Agents',
    description: 'Agent pools, agent tokens and the executor protocol.',
    tags: ['agent pools', 'executor protocol'],
  },
  {
    name: 'Private registry',
    description:
      'Providers, their versions and platforms, GPG keys, modules, signed uploads and the registry protocols.',
    tags: [
      'registry-providers',
      'registry-provider-versions',
      'registry-provider-platforms',
      'gpg-keys',
      'registry-modules',
      'registry-protocol',
      'uploads',
    ],
  },
  {
    name: 'Administration',
    description: 'Engine and tool version catalogs, health and readiness.',
    tags: ['admin catalogs', 'health'],
  },
];

const AREA_OF = new Map(AREAS.flatMap((area) => area.tags.map((tag) => [tag, area.name] as const)));

/** Gives every operation exactly one tag, its area, and lists the areas in order with a description. */
export function groupByArea(doc: OpenAPIObject): void {
  const used = new Set<string>();
  for (const item of Object.values(doc.paths)) {
    for (const op of Object.values(item as Record<string, { tags?: string[] } | undefined>)) {
      if (!op || typeof op !== 'object' || !('responses' in op)) continue;
      const own = op.tags?.[0];
      const area = (own && AREA_OF.get(own)) ?? own ?? 'Other';
      op.tags = [area];
      used.add(area);
    }
  }
  const known = AREAS.filter((a) => used.has(a.name)).map(({ name, description }) => ({ name, description }));
  const rest = [...used].filter((name) => !AREAS.some((a) => a.name === name)).sort();
  doc.tags = [...known, ...rest.map((name) => ({ name }))];
}
