import { BadRequestError, PayloadTooLargeError, UnsupportedMediaTypeError } from './errors.ts';

export type BodyKind = 'json' | 'form';

const MEDIA_TYPES: Record<BodyKind, string> = {
  json: 'application/json',
  form: 'application/x-www-form-urlencoded',
};

/** The media type of a request without parameters, lower-cased ('' when absent). */
export function mediaTypeOf(request: Request): string {
  return (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/**
 * Reads a request body of an accepted kind, stopping as soon as it passes `maxBytes` (413), so a
 * huge body costs us no more than the limit. JSON that does not parse is a 400; other media
 * types are a 415. Form bodies come back as a plain object of their first values.
 */
export async function readBody(
  request: Request,
  options: { maxBytes: number; accept: readonly BodyKind[] },
): Promise<{ kind: BodyKind; value: unknown }> {
  const mediaType = mediaTypeOf(request);
  // `+json` suffixes (RFC 6839) are JSON too.
  const kind = options.accept.find(
    (candidate) =>
      mediaType === MEDIA_TYPES[candidate] || (candidate === 'json' && /^application\/[\w.-]+\+json$/.test(mediaType)),
  );
  if (!kind) throw new UnsupportedMediaTypeError(options.accept.map((k) => MEDIA_TYPES[k]));
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > options.maxBytes) throw new PayloadTooLargeError(options.maxBytes);
  const text = await readText(request, options.maxBytes);
  if (kind === 'form') {
    // The first value of a repeated field wins, as the comment above promises.
    // No prototype: a field named `__proto__` or `constructor` is just a field.
    const fields: Record<string, string> = Object.create(null);
    for (const [name, value] of new URLSearchParams(text)) if (!Object.hasOwn(fields, name)) fields[name] = value;
    return { kind, value: fields };
  }
  try {
    return { kind, value: JSON.parse(text) };
  } catch {
    throw new BadRequestError('body is not valid JSON');
  }
}

async function readText(request: Request, maxBytes: number): Promise<string> {
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new PayloadTooLargeError(maxBytes);
    }
    chunks.push(value);
  }
  return new TextDecoder('utf-8', { fatal: false }).decode(Buffer.concat(chunks));
}
