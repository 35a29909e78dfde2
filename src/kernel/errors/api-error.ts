import { errorCatalogue, type ErrorCode } from './error-catalogue.js';

/** One failing field of a 422, as a JSON pointer into the request body. */
export interface FieldError {
  path: string;
  message: string;
}

/** An error meant for the client: a catalogue code plus the specifics of this occurrence. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    readonly detail?: string,
    readonly extras: { errors?: FieldError[]; headers?: Record<string, string> } = {},
  ) {
    super(detail ?? errorCatalogue[code].title);
    this.status = errorCatalogue[code].status;
  }
}
