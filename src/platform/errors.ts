/** An error answered with its status and a message safe for a client (never input, upstream bodies or stacks). */
export class HttpError extends Error {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly details: Record<string, unknown>;

  constructor(
    status: number,
    message: string,
    options: { headers?: Record<string, string>; details?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = new.target.name;
    this.status = status;
    this.headers = options.headers ?? {};
    this.details = options.details ?? {};
  }
}

const retryAfter = (seconds: number) => ({ 'Retry-After': String(Math.max(1, Math.ceil(seconds))) });

/** 400; `issues` lists the fields when a body failed validation. */
export class BadRequestError extends HttpError {
  constructor(message: string, issues?: { path: string; message: string }[]) {
    super(400, message, issues ? { details: { issues } } : {});
  }
}

/** 401; `challenge` is the `WWW-Authenticate` value. */
export class UnauthorizedError extends HttpError {
  constructor(challenge: string, message = 'unauthorized') {
    super(401, message, { headers: { 'WWW-Authenticate': challenge, 'Cache-Control': 'no-store' } });
  }
}

/** 403: understood but refused, e.g. a form posted to us from another site. */
export class ForbiddenError extends HttpError {
  constructor(message = 'forbidden') {
    super(403, message);
  }
}

export class NotFoundError extends HttpError {
  constructor(message = 'not found') {
    super(404, message);
  }
}

export class MethodNotAllowedError extends HttpError {
  constructor(allow: readonly string[]) {
    super(405, 'method not allowed', { headers: { Allow: allow.join(', ') } });
  }
}

export class TooManyRequestsError extends HttpError {
  constructor(retryAfterSeconds: number) {
    super(429, 'too many requests', { headers: retryAfter(retryAfterSeconds) });
  }
}

/** 502: an upstream failed and there is nothing honest to fall back on. */
export class UpstreamUnavailableError extends HttpError {
  constructor(retryAfterSeconds: number, cause?: unknown) {
    super(502, 'upstream unavailable', { headers: retryAfter(retryAfterSeconds), cause });
  }
}

/** 503: a feature is not configured or its backing service is unavailable. */
export class ServiceUnavailableError extends HttpError {
  constructor(message: string, details: Record<string, unknown> = {}) {
    super(503, message, { details });
  }
}

/** `work`, with any failure but an HttpError (Blobs down, say) logged and answered 503 `message`. */
export async function unavailableAs503<T>(message: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof HttpError) throw error;
    console.warn(`${message}: ${(error as Error).message}`);
    throw new ServiceUnavailableError(message);
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
