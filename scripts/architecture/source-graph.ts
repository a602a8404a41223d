/**
 * Reads src/ (spec files and migrations left out: a test may import whatever it needs) into what the
 * module check and the generated parts of docs/architecture.md are made of: the import edges between
 * modules (a module is a top-level folder), the start-up registrations that stand in for imports the
 * other way, and each `forwardRef`. Files are parsed, not compiled: the whole of src/ takes about a
 * second.
 */
import { readdirSync, readFileSync, statSync } from 'fs';
import { posix } from 'path';
import ts from 'typescript';
import { Layer } from './folders';

export interface SourceText {
  /** Relative to src/, with forward slashes. */
  path: string;
  text: string;
}

export interface ImportEdge {
  from: string;
  to: string;
  file: string;
  line: number;
  specifier: string;
}

/** A class another module hands functions to at start-up instead of importing that module. */
export interface Registry {
  name: string;
  file: string;
  module: string;
  /** The first sentence of the class's doc comment. */
  summary: string;
}

export interface Registration {
  registry: Registry;
  module: string;
  file: string;
  line: number;
  /** `register`, `registerUpload`, … and its first argument as written. */
  call: string;
}

export interface SourceGraph {
  /** Top-level folders, alphabetical. */
  folders: string[];
  /** Subfolders per top-level folder (one level down), alphabetical. */
  subfolders: Map<string, string[]>;
  /** Files directly under src/. */
  entryFiles: string[];
  /** Module → imported module → the imports that make the edge (same-module imports left out). */
  edges: Map<string, Map<string, ImportEdge[]>>;
  registrations: Registration[];
  /** Files with `forwardRef(`, and how many. */
  forwardRefs: { file: string; count: number }[];
  /** Calls to a `register…` method on an injected receiver whose class the parse cannot tell. */
  unresolved: string[];
}

/**
 * Files allowed to import other modules' entities without that counting as a module edge. Keep in
 * step with the list of exceptions in docs/architecture.md. Besides these, an entity naming the
 * entity its foreign key references is schema, not a call, and does not count either.
 */
export const ENTITY_IMPORT_EXCEPTIONS: Record<string, string> = {
  'common/auth/access.repository.ts':
    'the queries behind every permission decision read tokens, users, teams and grants in one place',
};

const REGISTER = /^register([A-Z]\w*)?$/;

export function readSources(root: string): SourceText[] {
  const walk = (dir: string): SourceText[] =>
    readdirSync(dir)
      .sort()
      .flatMap((name) => {
        const full = posix.join(dir, name);
        if (statSync(full).isDirectory()) return name === 'migrations' ? [] : walk(full);
        if (!name.endsWith('.ts') || name.endsWith('.spec.ts')) return [];
        return [{ path: posix.relative(root, full), text: readFileSync(full, 'utf8') }];
      });
  return walk(root.split('\\').join('/'));
}

/** `organizations`, or `.` for a file directly under src/. */
export function moduleOf(path: string): string {
  const slash = path.indexOf('/');
  return slash < 0 ? '.' : path.slice(0, slash);
}

/** The cycle check's node: the platform folders count as one. */
export function nodeOf(module: string, layerOf: (m: string) => Layer | undefined): string {
  return layerOf(module) === 'platform' ? 'platform' : module;
}

/** `../organizations/organizations.service` from `projects/projects.module.ts` → its path under src/. */
function resolveSpecifier(fromFile: string, specifier: string, known: Set<string>): string | null {
  const base = posix.normalize(posix.join(posix.dirname(fromFile), specifier));
  if (base.startsWith('..')) return null;
  for (const candidate of [base, `${base}.ts`, `${base}/index.ts`])
    if (known.has(candidate)) return candidate;
  // A file the scan left out (a spec helper, a JSON file): still an edge to its folder.
  return base;
}

export function buildGraph(sources: SourceText[]): SourceGraph {
  const known = new Set(sources.map((s) => s.path));
  const parsed = new Map(
    sources.map((s) => [s.path, ts.createSourceFile(s.path, s.text, ts.ScriptTarget.Latest, true)]),
  );
  const folders = new Set<string>();
  const subfolders = new Map<string, Set<string>>();
  const entryFiles: string[] = [];
  for (const { path } of sources) {
    const parts = path.split('/');
    if (parts.length === 1) {
      entryFiles.push(path);
      continue;
    }
    folders.add(parts[0]);
    const subs = subfolders.get(parts[0]) ?? new Set<string>();
    subfolders.set(parts[0], subs);
    if (parts.length > 2) subs.add(parts[1]);
  }

  const edges = new Map<string, Map<string, ImportEdge[]>>();
  const registrations: Registration[] = [];
  const unresolved: string[] = [];
  const forwardRefs: { file: string; count: number }[] = [];
  const registries = new Map<string, Registry>();

  for (const [path, file] of parsed) {
    const from = moduleOf(path);
    const exempt = path in ENTITY_IMPORT_EXCEPTIONS || path.includes('/entities/');
    for (const { specifier, line } of relativeImports(file)) {
      const target = resolveSpecifier(path, specifier, known);
      if (target === null) continue;
      const to = moduleOf(target);
      if (to === from || (exempt && specifier.includes('/entities/'))) continue;
      const targets = edges.get(from) ?? new Map<string, ImportEdge[]>();
      edges.set(from, targets);
      targets.set(to, [...(targets.get(to) ?? []), { from, to, file: path, line, specifier }]);
    }

    const refs = (file.text.match(/\bforwardRef\(/g) ?? []).length;
    if (refs > 0) forwardRefs.push({ file: path, count: refs });

    for (const call of registerCalls(file)) {
      const typeName = receiverType(call.receiver);
      if (typeName === UNTYPED) {
        unresolved.push(`${path}:${call.line}: ${call.text}`);
        continue;
      }
      if (typeName === null) continue;
      const declared = importedFrom(file, typeName);
      if (declared === undefined) continue; // declared in this file: the module's own class
      if (declared === null) continue; // a package's class, not a module of src/
      const declFile = resolveSpecifier(path, declared, known);
      if (declFile === null || moduleOf(declFile) === from) continue;
      const key = `${declFile}#${typeName}`;
      let registry = registries.get(key);
      if (!registry) {
        registry = {
          name: typeName,
          file: declFile,
          module: moduleOf(declFile),
          summary: classSummary(parsed.get(declFile), typeName),
        };
        registries.set(key, registry);
      }
      registrations.push({ registry, module: from, file: path, line: call.line, call: call.text });
    }
  }

  return {
    folders: [...folders].sort(),
    subfolders: new Map([...subfolders].map(([k, v]) => [k, [...v].sort()])),
    entryFiles: entryFiles.sort(),
    edges,
    registrations: registrations.sort(
      (a, b) =>
        a.registry.module.localeCompare(b.registry.module) ||
        a.registry.name.localeCompare(b.registry.name) ||
        a.file.localeCompare(b.file) ||
        a.line - b.line,
    ),
    forwardRefs,
    unresolved,
  };
}

function lineOf(node: ts.Node): number {
  const file = node.getSourceFile();
  return file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1;
}

/** Static imports and exports, `import('…')` and `require('…')` of relative paths. */
function relativeImports(file: ts.SourceFile): { specifier: string; line: number }[] {
  const out: { specifier: string; line: number }[] = [];
  const note = (node: ts.Node, spec: ts.Expression | undefined) => {
    if (spec && ts.isStringLiteral(spec) && spec.text.startsWith('.')) {
      out.push({ specifier: spec.text, line: lineOf(node) });
    }
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) note(node, node.moduleSpecifier);
    else if (
      ts.isCallExpression(node) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(node.expression) && node.expression.text === 'require'))
    ) {
      note(node, node.arguments[0]);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return out;
}

interface RegisterCall {
  receiver: ts.Expression;
  line: number;
  text: string;
}

function registerCalls(file: ts.SourceFile): RegisterCall[] {
  const out: RegisterCall[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      REGISTER.test(node.expression.name.text)
    ) {
      const first = node.arguments[0];
      const fn = first && (ts.isArrowFunction(first) || ts.isFunctionExpression(first));
      const shown = !first ? '' : fn ? '…' : first.getText(file).replace(/\s+/g, ' ');
      out.push({
        receiver: node.expression.expression,
        line: lineOf(node),
        text: `${node.expression.name.text}(${shown.length > 60 ? `${shown.slice(0, 57)}...` : shown})`,
      });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return out;
}

function typeNameOf(type: ts.TypeNode | undefined): string | null {
  return type && ts.isTypeReferenceNode(type) && ts.isIdentifier(type.typeName) ? type.typeName.text : null;
}

/** A receiver injected or passed in without a type the parse can read. */
const UNTYPED = Symbol('untyped');

/**
 * The declared class of `this.x` (a constructor parameter property or a property of the enclosing
 * class) or of `x` (a parameter of an enclosing function), the way modules receive what they
 * register with. UNTYPED when that declaration has no type the parse can read; null for any other
 * receiver (a package's object, a call's result), which is not a module's registry.
 */
function receiverType(receiver: ts.Expression): string | typeof UNTYPED | null {
  const typed = (type: ts.TypeNode | undefined) => typeNameOf(type) ?? UNTYPED;
  const cls = (node: ts.Node): ts.ClassLikeDeclaration | undefined => {
    for (let n: ts.Node | undefined = node.parent; n; n = n.parent) if (ts.isClassLike(n)) return n;
    return undefined;
  };
  if (ts.isPropertyAccessExpression(receiver) && receiver.expression.kind === ts.SyntaxKind.ThisKeyword) {
    const name = receiver.name.text;
    const owner = cls(receiver);
    for (const member of owner?.members ?? []) {
      if (ts.isPropertyDeclaration(member) && member.name.getText() === name) return typed(member.type);
      if (ts.isConstructorDeclaration(member)) {
        const param = member.parameters.find((p) => p.name.getText() === name);
        if (param) return typed(param.type);
      }
    }
    return null;
  }
  if (ts.isIdentifier(receiver)) {
    for (let n: ts.Node | undefined = receiver.parent; n; n = n.parent) {
      if (ts.isFunctionLike(n)) {
        const param = n.parameters.find((p) => p.name.getText() === receiver.text);
        if (param) return typed(param.type);
      }
    }
  }
  return null;
}

/** The relative specifier `name` is imported from; null for a package; undefined if not imported. */
function importedFrom(file: ts.SourceFile, name: string): string | null | undefined {
  for (const statement of file.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    const bindings = statement.importClause?.namedBindings;
    if (!bindings || !ts.isNamedImports(bindings)) continue;
    if (bindings.elements.some((e) => e.name.text === name)) {
      const spec = statement.moduleSpecifier.text;
      return spec.startsWith('.') ? spec : null;
    }
  }
  return undefined;
}

/** The first sentence of the doc comment of the class (or interface) `name`, on one line. */
function classSummary(file: ts.SourceFile | undefined, name: string): string {
  const decl = file?.statements.find(
    (s): s is ts.ClassDeclaration | ts.InterfaceDeclaration =>
      (ts.isClassDeclaration(s) || ts.isInterfaceDeclaration(s)) && s.name?.text === name,
  );
  if (!file || !decl) return '';
  const docs = ts.getJSDocCommentsAndTags(decl).filter(ts.isJSDoc);
  const comment = docs.length ? ts.getTextOfJSDocComment(docs[docs.length - 1].comment) : undefined;
  const text = (comment ?? '').replace(/\s+/g, ' ').trim();
  const end = text.search(/\.(\s|$)/);
  return end < 0 ? text : text.slice(0, end + 1);
}
