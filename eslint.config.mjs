import eslint from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

/*
 * A module's tables are its own: its entities and repositories are imported only from inside it.
 * Other modules read and lock its rows through its exported service and may name the entity only
 * as a type (the service returns it). docs/architecture.md lists the exceptions below.
 */
const OWN_TABLES = {
  allowTypeImports: true,
  message:
    "another module's tables: go through its service (docs/architecture.md, 'Each table has one owner')",
};
const ownTables = (...levels) => ({
  patterns: [
    { ...OWN_TABLES, group: levels.map((up) => `${up}*/entities/**`) },
    { ...OWN_TABLES, group: levels.flatMap((up) => [`${up}*/*.repository`, `${up}*/**/*.repository`]) },
  ],
});
/** Besides other modules' tables, those of the named folders (`./pools/`, `../`) beside it. */
const ownTablesAnd = (levels, folders) => {
  const own = ownTables(...levels);
  own.patterns.push({
    ...OWN_TABLES,
    group: folders.flatMap((f) => [`${f}entities/**`, `${f}*.repository`]),
  });
  return own;
};

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'coverage/**',
      'data/**',
      'eslint.config.mjs',
      'jest.config.js',
      // Type-checked against a client generated at test time (test/jsonapi/typed-client.e2e-spec.ts).
      'test/jsonapi/typed-client/**',
    ],
  },
  eslint.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  prettier,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      eqeqeq: ['error', 'always'],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/no-extraneous-class': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'class-validator',
              importNames: ['IsOptional'],
              message:
                'IsOptional lets null reach the database: use Omittable(), or Nullable() where null clears the attribute (common/jsonapi/presence).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.spec.ts', 'src/*/entities/**', 'src/runs/*/entities/**', 'src/persistence/**'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', ownTables('../', '../../')] },
  },
  {
    // The registry's sub-folders are one module: they share its entities and repositories.
    files: ['src/registry/*/**/*.ts'],
    ignores: ['src/**/*.spec.ts', 'src/*/entities/**'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', ownTables('../../')] },
  },
  {
    // The run control plane is one folder of three modules: runs (with the executor protocol),
    // agent pools and policy checks. Each keeps its tables from the others.
    files: ['src/runs/*.ts', 'src/runs/protocol/**/*.ts'],
    ignores: ['src/**/*.spec.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        ownTablesAnd(
          ['../', '../../', '../../../'],
          ['./pools/', './policy-checks/', '../pools/', '../policy-checks/'],
        ),
      ],
    },
  },
  {
    files: ['src/runs/pools/**/*.ts', 'src/runs/policy-checks/**/*.ts'],
    ignores: ['src/**/*.spec.ts', 'src/runs/*/entities/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        ownTablesAnd(['../', '../../', '../../../'], ['../', '../../', '../protocol/']),
      ],
    },
  },
  {
    // The listed exceptions (docs/architecture.md): the queries behind every permission decision,
    // the run-trigger page that reads both workspaces in its one query, and the organization
    // lifecycle, which writes the rows of the organizations module it belongs beside.
    files: [
      'src/common/auth/access.repository.ts',
      'src/run-triggers/run-triggers.repository.ts',
      'src/organization-lifecycle/organization-lifecycle.service.ts',
    ],
    rules: { '@typescript-eslint/no-restricted-imports': 'off' },
  },
);
