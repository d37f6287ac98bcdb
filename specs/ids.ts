// Identifier patterns of the API document.
//
// The sources are written without flags (ECMA-262 as used by JSON Schema `pattern`), so
// the same text goes into the OpenAPI path parameter and into the RegExp below; case
// insensitivity is spelled out as [0-9a-fA-F] instead of an `i` flag.

const HEX = '[0-9a-fA-F]';

/**
 * §4: the path parameter `id` is a canonical UUID of versions 1 to 8 with variant
 * 8/9/a/b, or the all-zero UUID, or the all-f UUID (any letter case).
 */
export const PATH_ID_PATTERN_SOURCE = `^(?:${HEX}{8}-${HEX}{4}-[1-8]${HEX}{3}-[89abAB]${HEX}{3}-${HEX}{12}`
  + '|00000000-0000-0000-0000-000000000000'
  + '|[fF]{8}-[fF]{4}-[fF]{4}-[fF]{4}-[fF]{12})$';

export const PATH_ID_PATTERN: RegExp = new RegExp(PATH_ID_PATTERN_SOURCE);

export function isPathId(s: string): boolean {
  return PATH_ID_PATTERN.test(s);
}

/**
 * §2: identifiers in bodies are "strings in UUID format". No version or variant is
 * stated for them, so the body format is the canonical hyphenated 8-4-4-4-12 hex form
 * only (no `urn:uuid:` prefix, no braces), any letter case. It backs JSON Schema
 * `format: "uuid"` in specs/index.ts (ajv-formats' own uuid also admits `urn:uuid:`).
 */
export const UUID_PATTERN_SOURCE = `^${HEX}{8}-${HEX}{4}-${HEX}{4}-${HEX}{4}-${HEX}{12}$`;

export const UUID_PATTERN: RegExp = new RegExp(UUID_PATTERN_SOURCE);

export function isUuid(s: string): boolean {
  return UUID_PATTERN.test(s);
}
