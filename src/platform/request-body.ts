import { badRequest, payloadTooLarge, unsupportedMediaType } from './errors.ts';
import * as z from './zod-mini.ts';

export type BodyKind = 'json' | 'form';

const MEDIA_TYPES: Record<BodyKind, string> = { json: 'application/json', form: 'application/x-www-form-urlencoded' };

/** The media type of a request without parameters, lower-cased ('' when absent). */
export function mediaTypeOf(request: Request): string {
  return (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** A request's or response's body as text, or `tooLarge()` as soon as it passes `maxBytes` (a huge body costs no more). */
export async function readCappedText(message: Request | Response, maxBytes: number, tooLarge: () => Error) {
  if (Number(message.headers.get('content-length')) > maxBytes) {
    await message.body?.cancel().catch(() => {});
    throw tooLarge();
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of message.body ?? []) {
    size += chunk.byteLength;
    if (size > maxBytes) throw tooLarge(); // leaving the loop cancels the stream
    chunks.push(chunk);
  }
  return new TextDecoder().decode(Buffer.concat(chunks)); // drops a BOM, replaces bad bytes
}

/**
 * Reads a body of an accepted kind (415 otherwise) up to `maxBytes` (413); JSON that does not parse is a
 * 400; a form is each field's first value, in an object without a prototype (`__proto__` is a field).
 */
export async function readBody(
  request: Request,
  { maxBytes, accept }: { maxBytes: number; accept: readonly BodyKind[] },
): Promise<{ kind: BodyKind; value: unknown }> {
  const mediaType = mediaTypeOf(request);
  const kind = accept.find(
    (candidate) =>
      mediaType === MEDIA_TYPES[candidate] || (candidate === 'json' && /^application\/[\w.-]+\+json$/.test(mediaType)),
  );
  if (!kind) throw unsupportedMediaType(`content type must be ${accept.map((k) => MEDIA_TYPES[k]).join(' or ')}`);
  const text = await readCappedText(request, maxBytes, () => payloadTooLarge(maxBytes));
  if (kind === 'form') {
    const fields: Record<string, string> = Object.create(null);
    for (const [name, value] of new URLSearchParams(text)) if (!Object.hasOwn(fields, name)) fields[name] = value;
    return { kind, value: fields };
  }
  try {
    return { kind, value: JSON.parse(text) };
  } catch {
    throw badRequest('body is not valid JSON');
  }
}

/** `value` as `schema` reads it, else a 400 `message` listing each field that failed and why (never its input). */
export function validBody<S extends z.core.$ZodType>(schema: S, value: unknown, message: string): z.output<S> {
  const result = z.safeParse(schema, value);
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
  throw badRequest(message, issues);
}
