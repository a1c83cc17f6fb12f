/**
 * A refusal the service answers with a status and one of Airtable's error bodies (airtable-wire.md §4).
 * `type: null` gives the string form `{"error":"NOT_FOUND"}` used for unknown routes.
 */
export class ServiceError extends Error {
  constructor(
    readonly status: number,
    readonly type: string | null,
    message?: string,
  ) {
    super(message ?? type ?? 'error');
    this.hasMessage = message !== undefined;
  }
  readonly hasMessage: boolean;

  body(): { error: string | { type: string; message?: string } } {
    if (this.type === null) return { error: 'NOT_FOUND' };
    return { error: this.hasMessage ? { type: this.type, message: this.message } : { type: this.type } };
  }
}

export const invalidRequest = (
  message = 'Invalid request: parameter validation failed. Check your request data.',
) => new ServiceError(422, 'INVALID_REQUEST_UNKNOWN', message);

export const unknownField = (name: string) =>
  new ServiceError(422, 'UNKNOWN_FIELD_NAME', `Unknown field name: ${JSON.stringify(name)}`);

export const recordNotFound = () => new ServiceError(404, 'MODEL_ID_NOT_FOUND', 'Record not found');

export const invalidValue = (fieldName: string, detail?: string) =>
  new ServiceError(
    422,
    'INVALID_VALUE_FOR_COLUMN',
    `Field ${JSON.stringify(fieldName)} cannot accept the provided value${detail ? `: ${detail}` : ''}`,
  );

/**
 * A setting the server was started with that it cannot use (a command-line flag, an option of
 * `startServer`): its message names the setting for whoever started the server, and nothing was started.
 */
export class SettingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SettingError';
  }
}
