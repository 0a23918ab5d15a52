/** Small builders for OpenAPI 3.1 objects, so that path files stay declarative. */

export type JsonObject = Record<string, unknown>;

/** A reference to a schema registered with `.meta({ id })`. */
export const ref = (id: string): JsonObject => ({ $ref: `#/components/schemas/${id}` });

/** A JSON response whose body is described by a registered schema. */
export function jsonContent(schemaId: string, example?: unknown): JsonObject {
  return {
    'application/json': { schema: ref(schemaId), ...(example === undefined ? {} : { example }) },
  };
}

/** Reusable header objects, by name. */
export const headers = {
  ETag: { description: 'Validator for conditional requests (`If-None-Match`).', schema: { type: 'string' } },
  CacheControl: { description: 'Browser caching policy.', schema: { type: 'string' } },
  AccessControlAllowOrigin: { description: 'CORS: any origin may read public responses.', schema: { type: 'string' } },
  RetryAfter: { description: 'Seconds to wait before trying again.', schema: { type: 'integer', minimum: 1 } },
  Allow: { description: 'Methods the path supports.', schema: { type: 'string' } },
} as const;

/** The 405 answer every path gives for an unsupported method. */
export const methodNotAllowed: JsonObject = {
  description: 'The path does not support this method; `Allow` lists the ones it does.',
  headers: { Allow: headers.Allow },
  content: jsonContent('Error', { error: 'method not allowed' }),
};
