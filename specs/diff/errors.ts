// Input errors of the change checker, as data with stable codes (exit code 2 on the command line).

export const diffErrorCodes = {
  DIFF_USAGE: 'wrong arguments',
  DIFF_FILE_UNREADABLE: 'a document file cannot be read',
  DIFF_GIT_UNREADABLE: 'a document cannot be read from the git revision',
  DIFF_NOT_JSON: 'a document is not valid JSON',
  DIFF_NOT_OPENAPI_31: 'a document is not an OpenAPI 3.1 description',
  DIFF_REF_UNRESOLVED: 'a $ref points to nothing',
} as const;

export type DiffErrorCode = keyof typeof diffErrorCodes;

export class DiffInputError extends Error {
  override readonly name = 'DiffInputError';
  constructor(
    readonly code: DiffErrorCode,
    message: string,
  ) {
    super(message);
  }

  toJSON(): { code: DiffErrorCode; message: string } {
    return { code: this.code, message: this.message };
  }
}
