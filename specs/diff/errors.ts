// Input errors of the change checker, as data with stable codes (exit code 2 on the command line).
// `details` carries what a caller may act on without parsing the message: where a syntax error is
// (line, column) or where an unresolved $ref sits (document, at, ref).

export const diffErrorCodes = {
  DIFF_USAGE: 'wrong arguments',
  DIFF_FILE_UNREADABLE: 'a document file cannot be read',
  DIFF_GIT_UNREADABLE: 'a document cannot be read from the git revision',
  DIFF_NOT_JSON: 'a document is not valid JSON',
  DIFF_NOT_YAML: 'a document named .yaml or .yml is not valid YAML',
  DIFF_NOT_OPENAPI_31: 'a document is not an OpenAPI 3.1 description',
  DIFF_REF_UNRESOLVED: 'a $ref points to nothing',
} as const;

export type DiffErrorCode = keyof typeof diffErrorCodes;

export interface DiffErrorDetails {
  line?: number;
  column?: number;
  /** Which side the $ref is in: `old` or `new`. */
  document?: string;
  /** JSON pointer (`#/...`, or `uri#/...` in another file) of the object holding the $ref. */
  at?: string;
  ref?: string;
}

export class DiffInputError extends Error {
  override readonly name = 'DiffInputError';
  constructor(
    readonly code: DiffErrorCode,
    message: string,
    readonly details: DiffErrorDetails = {},
  ) {
    super(message);
  }

  toJSON(): { code: DiffErrorCode; message: string; } & DiffErrorDetails {
    return { code: this.code, message: this.message, ...this.details };
  }
}
