import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

/**
 * JSON Schema 2020-12 validation (OpenAPI 3.1's dialect) of values against parts of an OpenAPI
 * document: the document is registered whole under an id, so every `$ref` inside resolves as it
 * does for any client (Ajv 8 `ajv/dist/2020` for JSON Schema 2020-12, `strict: false` for the OpenAPI keywords it does not know).
 */
const DOCUMENT_ID = 'https://site-api.test/openapi.json';

// ajv-formats is CommonJS with `exports.default`; depending on interop the plugin is one level down.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as unknown as (
  ajv: Ajv2020,
) => Ajv2020;

export type OpenApi = {
  paths: Record<string, Record<string, Operation>>;
  components: Record<string, Record<string, unknown>>;
} & Record<string, unknown>;

export interface Operation {
  operationId: string;
  responses: Record<string, ResponseObject>;
  [key: string]: unknown;
}

export interface ResponseObject {
  description: string;
  headers?: Record<string, { $ref?: string; required?: boolean; schema?: unknown }>;
  content?: Record<string, { schema?: unknown; example?: unknown }>;
}

/** A JSON pointer segment (RFC 6901). */
export const pointer = (...segments: string[]): string =>
  `#/${segments.map((segment) => segment.replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`;

export class OpenApiValidator {
  readonly document: OpenApi;
  private readonly ajv: Ajv2020;
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(document: OpenApi) {
    this.document = document;
    this.ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(this.ajv);
    this.ajv.addSchema({ ...document, $id: DOCUMENT_ID });
  }

  /** Validates `value` against the schema at `at` (a JSON pointer into the document); errors as text. */
  errorsAt(at: string, value: unknown): string[] {
    let validate = this.compiled.get(at);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `${DOCUMENT_ID}${at}` });
      this.compiled.set(at, validate);
    }
    if (validate(value)) return [];
    return (validate.errors ?? []).map((error) => `${error.instancePath || '(root)'} ${error.message ?? ''}`);
  }

  /** Every operation: `{ path, method, operation }`. */
  operations(): { path: string; method: string; operation: Operation }[] {
    return Object.entries(this.document.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([method]) => ['get', 'head', 'post', 'put', 'patch', 'delete', 'options', 'trace'].includes(method))
        .map(([method, operation]) => ({ path, method, operation })),
    );
  }

  /** The header object a response lists under `name`, `$ref` resolved, with its pointer. */
  header(
    headerObject: { $ref?: string; required?: boolean; schema?: unknown },
    fallback: string,
  ): { required: boolean; at: string } {
    if (headerObject.$ref) {
      const name = headerObject.$ref.split('/').at(-1) as string;
      const shared = this.document.components.headers?.[name] as { required?: boolean } | undefined;
      if (!shared) throw new Error(`unresolved header ${headerObject.$ref}`);
      return { required: shared.required === true, at: `${pointer('components', 'headers', name)}/schema` };
    }
    return { required: headerObject.required === true, at: `${fallback}/schema` };
  }
}
