import { readFileSync } from 'fs';
import { resolve } from 'path';
import { REGENERATE, renderSections, spliceSections, staleSections } from '../../scripts/architecture/doc';
import { check, Descriptions, problemCount } from '../../scripts/architecture/rules';
import { buildGraph, readSources, SourceText } from '../../scripts/architecture/source-graph';
import { missingPaths, namedPaths, ROOT } from './doc-text';

const DOC = resolve(ROOT, 'docs/architecture.md');

describe('docs/architecture.md', () => {
  const graph = buildGraph(readSources(resolve(ROOT, 'src')));
  const doc = readFileSync(DOC, 'utf8');

  it('says in its generated parts what src/ says', () => {
    const stale = staleSections(doc, renderSections(graph));
    if (stale.length > 0) {
      throw new Error(
        `The generated ${stale.join(', ')} part(s) of docs/architecture.md differ from src/ ` +
          `(a module, an entry file, an import between modules or a registration came or went). ` +
          `Run \`${REGENERATE}\` and commit docs/architecture.md.`,
      );
    }
  });

  it('describes a src/ that keeps the module rules', () => {
    const findings = check(graph);
    if (problemCount(findings) > 0) {
      throw new Error(
        `src/ breaks the module rules (see \`npm run check:cycles\`): ${JSON.stringify(findings, null, 2)}`,
      );
    }
  });

  it('names only files and folders that exist', () => {
    expect(missingPaths(namedPaths(doc))).toEqual([]);
  });
});

/** A small src/ made up for the rules: `layer` says which folder is which. */
function sources(files: Record<string, string>): SourceText[] {
  return Object.entries(files).map(([path, text]) => ({ path, text }));
}

const described: Descriptions = {
  entryFiles: { 'main.ts': 'start' },
  folders: {
    common: { layer: 'platform', text: 'shared' },
    http: { layer: 'platform', text: 'pipeline' },
    alpha: { layer: 'domain', text: 'a' },
    beta: { layer: 'domain', text: 'b' },
    tool: { layer: 'program', text: 't' },
  },
  subfolders: {},
};

const base = {
  'main.ts': "import { A } from './alpha/a';\nimport { T } from './tool/t';",
  'common/c.ts': 'export const C = 1;',
  'http/h.ts': "import { C } from '../common/c';",
  'alpha/a.ts': "import { C } from '../common/c';\nexport class A {}",
  'beta/b.ts': "import { A } from '../alpha/a';",
  'tool/t.ts': "import { A } from '../alpha/a';",
};

describe('the module rules (scripts/architecture)', () => {
  const findings = (files: Record<string, string>) => check(buildGraph(sources(files)), described);

  it('find nothing wrong in a graph that keeps them', () => {
    expect(problemCount(findings(base))).toBe(0);
  });

  it('refuse a platform folder importing a domain module, even with no cycle to show it', () => {
    const f = findings({ ...base, 'common/c.ts': "import { B } from '../beta/b';", 'beta/b.ts': '' });
    expect(f.cycles).toEqual([]);
    expect(f.layers).toEqual(["platform common imports domain beta: common/c.ts:1 '../beta/b'"]);
  });

  it('refuse a domain module importing a program, and a module importing an entry file', () => {
    const f = findings({ ...base, 'beta/b.ts': "import { T } from '../tool/t';\nimport '../main';" });
    expect(f.layers).toEqual([
      "domain beta imports entry .: beta/b.ts:2 '../main'",
      "domain beta imports program tool: beta/b.ts:1 '../tool/t'",
    ]);
  });

  it('count a dynamic import as an import', () => {
    const f = findings({ ...base, 'http/h.ts': "export const h = () => import('../alpha/a');" });
    expect(f.layers).toEqual(["platform http imports domain alpha: http/h.ts:1 '../alpha/a'"]);
  });

  it('refuse a cycle between domain modules, and count the platform folders as one module', () => {
    const f = findings({
      ...base,
      'alpha/a.ts': "import { B } from '../beta/b';",
      'common/c.ts': "import { H } from '../http/h';",
    });
    expect(f.cycles).toEqual([['alpha', 'beta']]);
  });

  it("let the named exception and entities import other modules' entities", () => {
    const f = findings({
      ...base,
      'common/auth/access.repository.ts': "import { BEntity } from '../../beta/entities/b.entity';",
      'alpha/entities/a.entity.ts': "import { BEntity } from '../../beta/entities/b.entity';",
      'beta/entities/b.entity.ts': "import { AEntity } from '../../alpha/entities/a.entity';",
    });
    expect(f.layers).toEqual([]);
    expect(f.cycles).toEqual([]);
  });

  it('name an undescribed folder and a description of one that is gone', () => {
    const folders = Object.fromEntries(Object.entries(described.folders).filter(([name]) => name !== 'tool'));
    const f = check(buildGraph(sources({ ...base, 'gamma/g.ts': '' })), {
      ...described,
      folders,
      subfolders: { 'alpha/gone': 'x' },
    });
    expect(f.descriptions).toEqual([
      'src/gamma/ has no line in FOLDERS (scripts/architecture/folders.ts): its layer and what it is',
      'src/tool/ has no line in FOLDERS (scripts/architecture/folders.ts): its layer and what it is',
      'SUBFOLDERS (scripts/architecture/folders.ts) describes src/alpha/gone/, which is gone',
    ]);
  });

  it("find each registration with another module's class, and only those", () => {
    const graph = buildGraph(
      sources({
        ...base,
        'alpha/registry.ts': '/** Who answers for alpha. More text. */\nexport class AlphaRegistry {}',
        'beta/b.ts': [
          "import { AlphaRegistry } from '../alpha/registry';",
          'class Own { register(): void {} }',
          'export class B {',
          '  constructor(private readonly registry: AlphaRegistry, own: Own, plain: AlphaRegistry) {',
          "    plain.registerUpload('purpose', {});",
          '    own.register();',
          '  }',
          '  start(): void {',
          '    this.registry.register(() => 1);',
          '  }',
          '}',
        ].join('\n'),
      }),
    );
    expect(
      graph.registrations.map((r) => [r.registry.name, r.registry.summary, r.file, r.line, r.call]),
    ).toEqual([
      ['AlphaRegistry', 'Who answers for alpha.', 'beta/b.ts', 5, "registerUpload('purpose')"],
      ['AlphaRegistry', 'Who answers for alpha.', 'beta/b.ts', 9, 'register(…)'],
    ]);
    expect(graph.unresolved).toEqual([]);
  });

  it('report a registration on an injected receiver it cannot type, and leave other receivers alone', () => {
    const graph = buildGraph(
      sources({
        ...base,
        'beta/b.ts': [
          "import client from 'some-package';",
          'export class B {',
          '  constructor(private readonly registry: any) {}',
          '  start(x: number): void {',
          '    this.registry.register(x);',
          '    client.metrics.registerMetric(x);',
          '  }',
          '}',
        ].join('\n'),
      }),
    );
    expect(graph.unresolved).toEqual(['beta/b.ts:5: register(x)']);
    expect(graph.registrations).toEqual([]);
  });
});

describe('the generated parts', () => {
  it('are written between their markers and found stale when they differ', () => {
    const doc = 'a\n<!-- generated:layout (run it) -->\nold\n<!-- /generated:layout -->\nb\n';
    expect(staleSections(doc, { layout: 'new' })).toEqual(['layout']);
    const written = spliceSections(doc, { layout: 'new' });
    expect(written).toBe('a\n<!-- generated:layout (run it) -->\nnew\n<!-- /generated:layout -->\nb\n');
    expect(staleSections(written, { layout: 'new' })).toEqual([]);
    expect(() => spliceSections('no markers', { layout: 'new' })).toThrow('generated:layout');
  });
});
