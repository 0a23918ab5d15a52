import { createHash } from 'node:crypto';
import Negotiator from 'negotiator';
import { ForbiddenError, HttpError } from '../platform/errors.ts';
import { type Answer, NO_STORE } from '../platform/http.ts';
import { mediaTypeOf } from '../platform/request-body.ts';
import type { ContactOutcome } from './contact.ts';

/**
 * How POST /api/contact answers: JSON for JSON clients, and for a plain HTML form posted by a
 * browser without script a redirect back to the page (303) or a small page of its own. Browsers
 * may call it from the site's own origin only. Answers are plain values (`Answer`); the function
 * turns them into responses (`respond`, src/platform/http.ts).
 */

export const CONTACT_ALLOW = ['POST', 'OPTIONS'] as const;

/** The site's own origin, or the origin this request reached (the site may have several hosts). */
function isOwnOrigin(origin: string, request: Request, siteUrl: string): boolean {
  return origin === siteUrl || origin === new URL(request.url).origin;
}

/** CORS headers on every POST answer: only the site's own pages may read them. */
export function contactCorsHeaders(siteUrl: string): Record<string, string> {
  return {
    'Access-Control-Allow-Origin': siteUrl,
    'Access-Control-Expose-Headers': 'Retry-After',
    Vary: 'Origin',
  };
}

/** Answers a CORS preflight: allowed for the site's own origin only (others get no CORS headers). */
export function contactPreflight(request: Request, siteUrl: string): Answer {
  const headers: Record<string, string> = {
    Allow: CONTACT_ALLOW.join(', '),
    'Cache-Control': NO_STORE,
    Vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers',
  };
  if (request.headers.get('origin') === siteUrl) {
    Object.assign(headers, {
      'Access-Control-Allow-Origin': siteUrl,
      'Access-Control-Allow-Methods': 'POST',
      'Access-Control-Allow-Headers': 'Content-Type, Accept',
      'Access-Control-Max-Age': '86400',
    });
  }
  return { status: 204, headers, empty: true };
}

/**
 * A browser names the page's origin in `Origin` on every POST; one from another site (or an
 * opaque `null` origin) is a cross-site submission and is refused, so no other site can make its
 * visitors send mail. Clients that send no `Origin` (scripts, servers) are not browsers posting
 * across sites and are let through.
 */
export function assertOwnOrigin(request: Request, siteUrl: string): void {
  const origin = request.headers.get('origin');
  if (origin !== null && !isOwnOrigin(origin, request, siteUrl)) {
    throw new ForbiddenError('cross-site form posts are not accepted');
  }
}

/**
 * A form post from a browser gets a human answer; JSON bodies, and clients that prefer JSON
 * (`Accept: application/json`), get JSON. Without `Accept`, and on a tie, HTML.
 */
export function answersWithHtml(request: Request): boolean {
  if (mediaTypeOf(request) !== 'application/x-www-form-urlencoded') return false;
  const accept = request.headers.get('accept') || undefined;
  return new Negotiator({ headers: { accept } }).mediaType(['text/html', 'application/json']) === 'text/html';
}

/** The page the form was posted from, when it is one of the site's own (never an open redirect). */
export function ownReferer(request: Request, siteUrl: string): URL | null {
  const referer = request.headers.get('referer');
  if (!referer || !URL.canParse(referer)) return null;
  const url = new URL(referer);
  if (!isOwnOrigin(url.origin, request, siteUrl)) return null;
  url.hash = '';
  url.searchParams.delete('contact');
  return url;
}

/** JSON answer for an accepted message: 200 `sent` or 202 `queued`. */
export function acceptedJson(outcome: ContactOutcome, siteUrl: string): Answer {
  return {
    status: outcome === 'sent' ? 200 : 202,
    headers: { ...contactCorsHeaders(siteUrl), 'Cache-Control': NO_STORE },
    json: { status: outcome },
  };
}

/**
 * A form post that was accepted: 303 back to the page it came from with `?contact=sent` or
 * `?contact=queued`, or, without a usable Referer, a small page saying so (200 or 202).
 */
export function acceptedForm(request: Request, outcome: ContactOutcome, siteUrl: string): Answer {
  const back = ownReferer(request, siteUrl);
  if (back) {
    back.searchParams.set('contact', outcome);
    return { status: 303, redirect: back.href };
  }
  return outcome === 'sent'
    ? htmlPage(200, 'Message sent', ['<p>Thank you. Your message has been sent.</p>'], `${siteUrl}/`)
    : htmlPage(
        202,
        'Message received',
        ['<p>Thank you. Your message has been received and will be delivered shortly.</p>'],
        `${siteUrl}/`,
      );
}

const FIELD_LABELS: Record<string, string> = { name: 'Name', email: 'E-mail', message: 'Message' };

/** A form post that was not accepted: a small page with the same status the JSON answer has. */
export function errorForm(error: unknown, request: Request, siteUrl: string): Answer {
  const back = ownReferer(request, siteUrl)?.href ?? `${siteUrl}/`;
  if (!(error instanceof HttpError)) {
    console.error('Unexpected error while answering a contact form post:', error);
    return htmlPage(500, 'Something went wrong', ['<p>Your message was not sent. Please try again later.</p>'], back);
  }
  const retryAfter = Number(error.headers['Retry-After']);
  switch (error.status) {
    case 400: {
      const issues = (error.details.issues ?? []) as { path: string; message: string }[];
      const items = issues.map(
        (issue) =>
          `<li>${escapeHtml(FIELD_LABELS[issue.path] ?? (issue.path || 'Form'))}: ${escapeHtml(issue.message)}</li>`,
      );
      return htmlPage(
        400,
        'Please check the form',
        ['<p>The message was not sent:</p>', `<ul>${items.join('')}</ul>`],
        back,
        'Back to the form',
      );
    }
    case 429:
      return htmlPage(
        429,
        'Too many messages',
        [`<p>Thank you for writing so much! Please wait ${minutes(retryAfter)} before sending another message.</p>`],
        back,
        'Back to the site',
        error.headers,
      );
    case 503: {
      const mailto = typeof error.details.mailto === 'string' ? error.details.mailto : undefined;
      const address = mailto?.slice('mailto:'.length);
      return htmlPage(
        503,
        'The contact form is not available',
        [
          mailto && address
            ? `<p>Please write an e-mail to <a href="${escapeHtml(mailto)}">${escapeHtml(address)}</a> instead.</p>`
            : '<p>Please try again later.</p>',
        ],
        back,
        'Back to the site',
        error.headers,
      );
    }
    default:
      return htmlPage(
        error.status,
        'Message not sent',
        [`<p>The message could not be accepted (${escapeHtml(error.message)}).</p>`],
        back,
      );
  }
}

function minutes(seconds: number): string {
  const count = Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds / 60) : 60;
  return count === 1 ? 'a minute' : `${count} minutes`;
}

const STYLE =
  'body{font:1.1rem/1.5 system-ui,sans-serif;margin:0;padding:2rem 1rem;color:#1a1a1a;background:#fff}main{max-width:36rem;margin:auto}a{color:#0645ad}';
/** The page's only inline code is this style sheet; the CSP allows exactly it. */
const CONTENT_SECURITY_POLICY = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

function htmlPage(
  status: number,
  title: string,
  paragraphs: string[],
  backHref: string,
  backLabel = 'Back to the site',
  extraHeaders: Record<string, string> = {},
): Answer {
  const body = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
${paragraphs.join('\n')}
<p><a href="${escapeHtml(backHref)}">${escapeHtml(backLabel)}</a></p>
</main>
</body>
</html>
`;
  return { status, headers: { ...extraHeaders, 'Content-Security-Policy': CONTENT_SECURITY_POLICY }, html: body };
}

/** Escapes text for HTML element content and double-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char,
  );
}
