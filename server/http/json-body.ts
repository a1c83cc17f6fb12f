import { nestedDeeperThan } from '../../core/json-depth';
import { ServiceError } from '../errors';

/** Deepest nesting of arrays and objects a body may have: Airtable's bodies need under ten levels. */
export const MAX_BODY_DEPTH = 32;

const invalidBody = (detail: string) =>
  new ServiceError(400, 'INVALID_REQUEST_BODY', `The request encoding is invalid; ${detail}`);

/**
 * A request body as JSON. Deep nesting is refused before parsing, so no later step (zod, storing options
 * with JSON.stringify, answering) can run out of stack on it. JSON.parse itself keeps a `__proto__` key as
 * an own property, so a body cannot reach Object.prototype; a field named `__proto__` stays writable.
 */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') return undefined;
  if (nestedDeeperThan(text, MAX_BODY_DEPTH))
    throw invalidBody(`the JSON nests deeper than ${MAX_BODY_DEPTH} levels.`);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw invalidBody("the request can't be parsed as a valid JSON.");
  }
}
