import { type OpenApiValidator, pointer } from './openapi-validator.ts';

/** What the check needs of an answer: a fetch `Response` has it, so does the fuzz test's raw client. */
export interface AnswerHead {
  status: number;
  headers: Headers;
}

/**
 * Every way an answer departs from what the OpenAPI document says for the operation
 * `operationId`: a status the operation does not list, a required header missing or a header value
 * outside its schema, a body of an undocumented media type or, for JSON, one that does not match
 * its schema (JSON Schema 2020-12, Ajv). An empty list means the answer keeps the contract.
 *
 * `bodyless`: the answer is to a HEAD request, which carries the GET's status and headers but
 * never a body, so only those are checked.
 */
export function contractProblems(
  validator: OpenApiValidator,
  operationId: string,
  response: AnswerHead,
  body: string,
  options: { bodyless?: boolean } = {},
): string[] {
  const found = validator.operations().find(({ operation }) => operation.operationId === operationId);
  if (!found) return [`no operation ${operationId} in the document`];
  const { path, method, operation } = found;
  const status = String(response.status);
  const documented = operation.responses[status];
  const at = pointer('paths', path, method, 'responses', status);
  if (!documented) return [`status ${status} is not documented for ${operationId}`];
  const problems: string[] = [];

  for (const [name, header] of Object.entries(documented.headers ?? {})) {
    const { required, at: schemaAt } = validator.header(header, `${at}/headers/${name.replaceAll('/', '~1')}`);
    const value = response.headers.get(name);
    if (value === null) {
      if (required) problems.push(`required header ${name} is missing`);
      continue;
    }
    // Header values are text; a numeric schema is checked against the number the text spells.
    const asText = validator.errorsAt(schemaAt, value);
    const numeric = /^-?\d+(\.\d+)?$/.test(value);
    for (const error of asText.length > 0 && numeric ? validator.errorsAt(schemaAt, Number(value)) : asText) {
      problems.push(`header ${name}: ${JSON.stringify(value)} ${error}`);
    }
  }

  if (options.bodyless) {
    if (body !== '') problems.push(`an answer to HEAD has a body: ${JSON.stringify(body.slice(0, 80))}`);
    return problems;
  }
  if (!documented.content) {
    if (body !== '') problems.push(`no body is documented, got ${JSON.stringify(body.slice(0, 80))}`);
    return problems;
  }
  const mediaType = (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  const content = documented.content[mediaType];
  if (!content) {
    problems.push(`content type ${mediaType || '(none)'} is not documented (${Object.keys(documented.content)})`);
    return problems;
  }
  if (mediaType === 'application/json' || mediaType.endsWith('+json')) {
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      return [...problems, `body is not JSON: ${JSON.stringify(body.slice(0, 80))}`];
    }
    const schemaAt = `${at}/content/${mediaType.replaceAll('/', '~1')}/schema`;
    problems.push(...validator.errorsAt(schemaAt, json).map((error) => `body ${error}`));
  }
  return problems;
}
