import { createHash } from 'node:crypto';
import Negotiator from 'negotiator';
import { forbidden, HttpError } from '../platform/errors.ts';
import { type Answer, NO_STORE } from '../platform/http.ts';
import { mediaTypeOf } from '../platform/request-body.ts';
import type { ContactOutcome } from './contact-schemas.ts';

/** How POST /api/contact answers: JSON, or for a browser's plain form post a 303 back or a small page. */
export const CONTACT_ALLOW = ['POST', 'OPTIONS'] as const;

/** The site's own origin, or the origin this request reached (the site may have several hosts). */
const isOwnOrigin = (origin: string, request: Request, siteUrl: string) =>
  origin === siteUrl || origin === new URL(request.url).origin;

/** On every POST answer: only the site's own pages may read it. */
export function contactCorsHeaders(siteUrl: string): Record<string, string> {
  return { 'Access-Control-Allow-Origin': siteUrl, 'Access-Control-Expose-Headers': 'Retry-After', Vary: 'Origin' };
}

/** The CORS preflight: allowed for the site's own origin only (others get no CORS headers). */
export function contactPreflight(request: Request, siteUrl: string): Answer {
  const cors = request.headers.get('origin') === siteUrl && {
    'Access-Control-Allow-Origin': siteUrl,
    'Access-Control-Allow-Methods': 'POST',
    'Access-Control-Allow-Headers': 'Content-Type, Accept',
    'Access-Control-Max-Age': '86400',
  };
  const vary = 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers';
  return {
    status: 204,
    headers: { Allow: CONTACT_ALLOW.join(', '), 'Cache-Control': NO_STORE, Vary: vary, ...cors },
    empty: true,
  };
}

/** No other site may make its visitors send mail: 403 when `Origin` names another site (or is `null`). */
export function assertOwnOrigin(request: Request, siteUrl: string): void {
  const origin = request.headers.get('origin');
  if (origin !== null && !isOwnOrigin(origin, request, siteUrl)) {
    throw forbidden('cross-site form posts are not accepted');
  }
}

/** Form posts get HTML unless they prefer JSON (`Accept`); without `Accept`, and on a tie, HTML. */
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

/** 200 `sent` or 202 `queued`. */
export function acceptedJson(outcome: ContactOutcome, siteUrl: string): Answer {
  const headers = { ...contactCorsHeaders(siteUrl), 'Cache-Control': NO_STORE };
  return { status: outcome === 'sent' ? 200 : 202, headers, json: { status: outcome } };
}

const ACCEPTED_PAGES = {
  sent: [200, 'Message sent', 'has been sent.'],
  queued: [202, 'Message received', 'has been received and will be delivered shortly.'],
} as const;

/** 303 back to the form's page with `?contact=<outcome>`, or without a usable Referer a page saying so. */
export function acceptedForm(request: Request, outcome: ContactOutcome, siteUrl: string): Answer {
  const back = ownReferer(request, siteUrl);
  if (back) {
    back.searchParams.set('contact', outcome);
    return { status: 303, redirect: back.href };
  }
  const [status, title, text] = ACCEPTED_PAGES[outcome];
  return htmlPage(status, title, `<p>Thank you. Your message ${text}</p>`, `${siteUrl}/`);
}

const FIELD_LABELS: Record<string, string> = { name: 'Name', email: 'E-mail', message: 'Message' };

/** A form post that was not accepted: a small page with the status the JSON answer has. */
export function errorForm(error: unknown, request: Request, siteUrl: string): Answer {
  const back = ownReferer(request, siteUrl)?.href ?? `${siteUrl}/`;
  if (!(error instanceof HttpError)) {
    console.error('Unexpected error while answering a contact form post:', error);
    return htmlPage(500, 'Something went wrong', '<p>Your message was not sent. Please try again later.</p>', back);
  }
  const { status, headers, details } = error;
  const page = (title: string, body: string, backLabel?: string) =>
    htmlPage(status, title, body, back, backLabel, headers);
  if (status === 400) {
    const items = ((details.issues ?? []) as { path: string; message: string }[]).map(
      ({ path, message }) => `<li>${escapeHtml(FIELD_LABELS[path] ?? (path || 'Form'))}: ${escapeHtml(message)}</li>`,
    );
    const body = `<p>The message was not sent:</p>\n<ul>${items.join('')}</ul>`;
    return page('Please check the form', body, 'Back to the form');
  }
  if (status === 429) {
    const wait = Math.ceil(Number(headers['Retry-After']) / 60); // always set by the limiter
    const body = `<p>Thank you for writing so much! Please wait ${wait === 1 ? 'a minute' : `${wait} minutes`} before sending another message.</p>`;
    return page('Too many messages', body);
  }
  if (status === 503) {
    const mailto = typeof details.mailto === 'string' ? details.mailto : '';
    const address = mailto.slice('mailto:'.length);
    const body = address
      ? `<p>Please write an e-mail to <a href="${escapeHtml(mailto)}">${escapeHtml(address)}</a> instead.</p>`
      : '<p>Please try again later.</p>';
    return page('The contact form is not available', body);
  }
  return page('Message not sent', `<p>The message could not be accepted (${escapeHtml(error.message)}).</p>`);
}

const STYLE =
  'body{font:1.1rem/1.5 system-ui,sans-serif;margin:0;padding:2rem 1rem;color:#1a1a1a;background:#fff}main{max-width:36rem;margin:auto}a{color:#0645ad}';
/** The page's only inline code is this style sheet; the CSP allows exactly it. */
const CONTENT_SECURITY_POLICY = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

function htmlPage(
  status: number,
  title: string,
  body: string,
  backHref: string,
  backLabel = 'Back to the site',
  headers: Record<string, string> = {},
): Answer {
  const html = `<!doctype html>
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
${body}
<p><a href="${escapeHtml(backHref)}">${escapeHtml(backLabel)}</a></p>
</main>
</body>
</html>
`;
  return { status, headers: { ...headers, 'Content-Security-Policy': CONTENT_SECURITY_POLICY }, html };
}

/** Escapes text for HTML element content and double-quoted attribute values. */
export function escapeHtml(text: string): string {
  const entities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
  return text.replace(/[&<>"']/g, (char) => entities[char] ?? char);
}
