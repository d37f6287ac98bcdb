// The requirement catalog (contract C2): one entry per normative statement of the API document.
// The JSON is read and validated once, at import; a broken catalog fails loudly at import time so that
// no check can be registered against ids that are not really there.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { globRegExp } from './patterns.js';

export type RequirementLevel = 'must' | 'implied' | 'not-testable';
/** server: checked by the suites; client: honoured by the suite's own tolerance; spec: checked by the spec-diff tool. */
export type RequirementSubject = 'server' | 'client' | 'spec';

export interface Requirement {
  readonly id: string;
  readonly section: string;
  readonly quote: string;
  readonly level: RequirementLevel;
  readonly subject: RequirementSubject;
  readonly check: string;
}

export interface RequirementCatalog {
  readonly specVersion: string;
  readonly document: string;
  readonly requirements: readonly Requirement[];
}

export class RequirementCatalogError extends Error {
  readonly code = 'REQUIREMENT_CATALOG_INVALID';
  constructor(readonly file: string, readonly problems: readonly string[]) {
    super(`Requirement catalog ${file} is invalid:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'RequirementCatalogError';
  }
}

const specsDir = path.dirname(fileURLToPath(import.meta.url));
export const repoRoot = path.resolve(specsDir, '..');
export const catalogPath = path.join(specsDir, 'requirements.json');
const schemaPath = path.join(specsDir, 'requirements.schema.json');

const readJson = (file: string): unknown => JSON.parse(readFileSync(file, 'utf8'));
const validateShape = new Ajv2020({ allErrors: true, strict: true }).compile(readJson(schemaPath) as object);

/** Problems of a catalog value (schema violations, then duplicate ids); empty when valid. */
export function catalogProblems(value: unknown): string[] {
  if (!validateShape(value)) {
    return (validateShape.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? e.keyword}`);
  }
  const seen = new Set<string>();
  const problems: string[] = [];
  for (const { id } of (value as RequirementCatalog).requirements) {
    if (seen.has(id)) problems.push(`duplicate id ${id}`);
    seen.add(id);
  }
  return problems;
}

function load(): RequirementCatalog {
  const value = readJson(catalogPath);
  const problems = catalogProblems(value);
  if (problems.length > 0) throw new RequirementCatalogError(catalogPath, problems);
  return deepFreeze(value as RequirementCatalog);
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

export const catalog: RequirementCatalog = load();
export const requirements: readonly Requirement[] = catalog.requirements;
export { specVersion } from './version.js';
/** Absolute path of the API document the quotes come from. */
export const documentPath: string = path.resolve(repoRoot, catalog.document);

const byId = new Map(requirements.map((r) => [r.id, r]));

export const requirementById = (id: string): Requirement | undefined => byId.get(id);
export const isKnownRequirement = (id: string): boolean => byId.has(id);
export const isTestable = (r: Requirement): boolean => r.level !== 'not-testable';
export const testableRequirements = (): readonly Requirement[] => requirements.filter(isTestable);

/** Catalog ids matched by any of the patterns (exact ids or globs like `LIST-*`), in catalog order. */
export function matchRequirementIds(patterns: readonly string[]): string[] {
  const regexps = patterns.filter((p) => p.trim() !== '').map(globRegExp);
  return requirements.filter((r) => regexps.some((re) => re.test(r.id))).map((r) => r.id);
}

/** Patterns that match no catalog id (typos in CONFORMANCE_ONLY and the like). */
export const unmatchedPatterns = (patterns: readonly string[]): string[] => patterns.filter((p) => p.trim() !== '' && matchRequirementIds([p]).length === 0);

export interface CoverageOptions {
  /** Subjects whose testable requirements count as uncovered; default: all. */
  readonly subjects?: readonly RequirementSubject[];
}

/**
 * unknown: used ids absent from the catalog; uncovered: testable (must|implied) requirements of the selected
 * subjects that no used id names. Both sorted.
 */
export function coverage(usedIds: Iterable<string>, options: CoverageOptions = {}): { unknown: string[]; uncovered: string[]; } {
  const used = new Set(usedIds);
  const subjects = new Set(options.subjects ?? ['server', 'client', 'spec']);
  const unknown = [...used].filter((id) => !byId.has(id)).sort();
  const uncovered = testableRequirements()
    .filter((r) => subjects.has(r.subject) && !used.has(r.id))
    .map((r) => r.id)
    .sort();
  return { unknown, uncovered };
}

/** The normalization under which every quote appears in the document: backticks and asterisks dropped,
 * table pipes read as spaces, whitespace collapsed. */
export const normalizeDocumentText = (text: string): string => text.replace(/[`*]/g, '').replace(/\|/g, ' ').replace(/\s+/g, ' ').trim();
