/** What /docs/api/ shows of the OpenAPI document: operations in tag order, curl examples, type labels, prose. */

import type { JsonObject } from '../platform/openapi-vocabulary.ts';
import type { OpenApiDocument } from './openapi-document.ts';

export interface Operation {
  method: string;
  path: string;
  id: string;
  operation: JsonObject & { responses: Record<string, JsonObject> };
}

const METHODS = ['get', 'head', 'post', 'put', 'patch', 'delete', 'options', 'trace'] as const;

/**
 * Every operation of the document (each has an id and a tag: tests/unit/discovery/openapi.test.ts), by tag,
 * then in the document's order: each area lists its main path first (GET /api/wait-times before GET /api/parks).
 */
export function operationsOf(document: OpenApiDocument): Operation[] {
  const tags = (document.tags as { name: string }[]).map((tag) => tag.name);
  const rank = (op: Operation) => tags.indexOf((op.operation.tags as string[])[0] ?? '');
  return Object.entries(document.paths)
    .flatMap(([path, item]) =>
      METHODS.flatMap((method) => {
        const operation = item[method] as Operation['operation'] | undefined;
        return operation
          ? [{ method: method.toUpperCase(), path, id: operation.operationId as string, operation }]
          : [];
      }),
    )
    .sort((a, b) => rank(a) - rank(b));
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  example?: unknown;
  schema?: JsonObject;
}

/** Shell single-quoting: safe for any text. */
const shellQuote = (text: string): string => `'${text.replaceAll("'", `'\\''`)}'`;

/** A value for a parameter in an example: its `example`, else its first enum value, else a placeholder. */
const exampleValue = (parameter: Parameter): string =>
  String(parameter.example ?? (parameter.schema?.enum as unknown[] | undefined)?.[0] ?? `<${parameter.name}>`);

/** A curl command for the operation on `serverUrl`: required parameters and body from their examples, $TOKEN. */
export function curlFor(op: Operation, serverUrl: string): string {
  const parameters = (op.operation.parameters as Parameter[] | undefined) ?? [];
  let path = op.path;
  const query = new URLSearchParams();
  for (const parameter of parameters) {
    if (parameter.in === 'path')
      path = path.replace(`{${parameter.name}}`, encodeURIComponent(exampleValue(parameter)));
    else if (parameter.in === 'query' && parameter.required) query.set(parameter.name, exampleValue(parameter));
  }
  const url = new URL(path, serverUrl);
  url.search = query.toString();
  const parts = ['curl -s'];
  if (op.method === 'HEAD') parts.push('-I');
  else if (op.method !== 'GET') parts.push(`-X ${op.method}`);
  if (needsToken(op.operation)) parts.push(`-H "Authorization: Bearer $TOKEN"`);
  const body = op.operation.requestBody as { content?: Record<string, { example?: unknown }> } | undefined;
  const json = body?.content?.['application/json'];
  if (json) {
    parts.push(`-H 'Content-Type: application/json'`);
    parts.push(`--data ${shellQuote(JSON.stringify(json.example ?? {}))}`);
  }
  parts.push(shellQuote(url.href));
  return parts.join(' ');
}

/** Whether an operation takes the owner's bearer token. */
export const needsToken = (operation: JsonObject): boolean =>
  ((operation.security as JsonObject[] | undefined) ?? []).some((requirement) => 'bearerAuth' in requirement);

/** A short, readable type for a JSON Schema: `integer ≥ 0, multiple of 5 | null`, `array of Ride`, … */
export function typeLabel(schema: JsonObject | undefined): string {
  if (!schema) return 'any';
  if (typeof schema.$ref === 'string') return schema.$ref.split('/').at(-1) ?? schema.$ref;
  if ('const' in schema) return JSON.stringify(schema.const);
  const variants = (schema.anyOf ?? schema.oneOf) as JsonObject[] | undefined;
  if (variants) return variants.map(typeLabel).join(' | ');
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.map((value) => JSON.stringify(value)).join(', ')}`;
  const type = Array.isArray(schema.type) ? schema.type.join(' | ') : String(schema.type ?? 'any');
  if (type === 'array') return `array of ${typeLabel(schema.items as JsonObject | undefined)}`;
  const facts: string[] = [];
  if (typeof schema.minimum === 'number') facts.push(`≥ ${schema.minimum}`);
  if (typeof schema.maximum === 'number' && schema.maximum !== Number.MAX_SAFE_INTEGER)
    facts.push(`≤ ${schema.maximum}`);
  if (typeof schema.multipleOf === 'number') facts.push(`multiple of ${schema.multipleOf}`);
  if (typeof schema.minLength === 'number') facts.push(`${schema.minLength}–${schema.maxLength ?? '…'} characters`);
  else if (typeof schema.maxLength === 'number') facts.push(`at most ${schema.maxLength} characters`);
  if (typeof schema.format === 'string') facts.push(schema.format);
  return facts.length ? `${type} (${facts.join(', ')})` : type;
}

export type TextPart = { kind: 'text' | 'code' | 'link'; text: string };

/** Paragraphs of a description split into text, `inline code` and https links, rendered as text nodes (no markup). */
export function paragraphsOf(description: unknown): TextPart[][] {
  if (typeof description !== 'string' || description === '') return [];
  return description.split(/\n{2,}/).map((paragraph) =>
    paragraph
      .split(/(`[^`]+`|https:\/\/[^\s"()]+[^\s"().,;:])/)
      .filter((part) => part !== '')
      .map((part): TextPart => {
        if (part.length > 1 && part.startsWith('`') && part.endsWith('`'))
          return { kind: 'code', text: part.slice(1, -1) };
        if (part.startsWith('https://')) return { kind: 'link', text: part };
        return { kind: 'text', text: part };
      }),
  );
}
