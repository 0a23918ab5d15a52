/**
 * The one error shape answered to a client: a status, a message safe for a client (never input,
 * upstream bodies or stacks), extra body fields (`details`) and headers. Features throw it through
 * the named constructors below; `errorResponse` (http.ts) is the one place it becomes a response.
 */
export class HttpError extends Error {
  override name = 'HttpError';
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly details: Record<string, unknown>;

  constructor(
    status: number,
    message: string,
    options: { headers?: Record<string, string>; details?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.status = status;
    this.headers = options.headers ?? {};
    this.details = options.details ?? {};
  }
}

const retryAfter = (seconds: number) => ({ 'Retry-After': String(Math.max(1, Math.ceil(seconds))) });

/** 400; `issues` lists the fields when a body failed validation. */
export const badRequest = (message: string, issues?: { path: string; message: string }[]) =>
  new HttpError(400, message, issues ? { details: { issues } } : {});

/** A bearer-protected resource's refusal, never stored: 401 (token missing or wrong) or 400 (malformed credentials). */
export const authChallenge = (status: 400 | 401, message: string, challenge: string) =>
  new HttpError(status, message, { headers: { 'WWW-Authenticate': challenge, 'Cache-Control': 'no-store' } });

/** 403: understood but refused, e.g. a form posted to us from another site. */
export const forbidden = (message = 'forbidden') => new HttpError(403, message);

export const notFound = (message = 'not found') => new HttpError(404, message);

export const methodNotAllowed = (allow: readonly string[]) =>
  new HttpError(405, 'method not allowed', { headers: { Allow: allow.join(', ') } });

export const payloadTooLarge = (maxBytes: number) => new HttpError(413, `body larger than ${maxBytes} bytes`);

export const unsupportedMediaType = (message: string) => new HttpError(415, message);

export const tooManyRequests = (retryAfterSeconds: number) =>
  new HttpError(429, 'too many requests', { headers: retryAfter(retryAfterSeconds) });

/** 502: an upstream failed and there is nothing honest to fall back on. */
export const upstreamUnavailable = (retryAfterSeconds: number, cause?: unknown) =>
  new HttpError(502, 'upstream unavailable', { headers: retryAfter(retryAfterSeconds), cause });

/** 503: a feature is not configured or its backing service is unavailable. */
export const serviceUnavailable = (
  message: string,
  options: { details?: Record<string, unknown>; retryAfterSeconds?: number | undefined } = {},
) =>
  new HttpError(503, message, {
    details: options.details ?? {},
    headers: options.retryAfterSeconds ? retryAfter(options.retryAfterSeconds) : {},
  });

/** `work`, with any failure but an HttpError (Blobs down, say) logged and answered 503 `message`. */
export async function unavailableAs503<T>(message: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof HttpError) throw error;
    console.warn(`${message}: ${(error as Error).message}`);
    throw serviceUnavailable(message);
  }
}

/** A malformed setting in the environment; thrown at start-up, never answered to a client. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Why an upstream answer could not be used (network, status, size, time or shape). */
export class UpstreamError extends Error {
  override name = 'UpstreamError';
}
