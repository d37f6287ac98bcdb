// Input errors of the document tools (`conformance diff` on Markdown, `conformance requirements check`),
// as data with stable codes; the command line prints them as "[CODE] message" and exits 2.

export const documentErrorCodes = {
  DOC_FILE_UNREADABLE: 'a document file cannot be read',
  DOC_GIT_UNREADABLE: 'a document cannot be read from the git revision',
  DOC_NOT_API_DOCUMENT: 'the text is not an API document (no title, no numbered sections or no /api/public/vN base path)',
  DOC_TABLE_MALFORMED: 'a table row has a different number of cells than its header',
} as const;

export type DocumentErrorCode = keyof typeof documentErrorCodes;

export class DocumentInputError extends Error {
  override readonly name = 'DocumentInputError';
  constructor(
    readonly code: DocumentErrorCode,
    message: string,
  ) {
    super(message);
  }

  toJSON(): { code: DocumentErrorCode; message: string; } {
    return { code: this.code, message: this.message };
  }
}
