import { methodNotAllowed } from '../platform/errors.ts';
import {
  ANONYMOUS,
  errorResponseObject,
  headerRefs,
  type JsonObject,
  jsonContent,
  ref,
} from '../platform/openapi-vocabulary.ts';

const corsHeaders = {
  'Access-Control-Allow-Origin': {
    description: "CORS: the site's own origin (`SITE_URL`), the only one whose pages may read the answer.",
    schema: { type: 'string', format: 'uri' },
  },
  Vary: { description: 'Always `Origin`.', schema: { type: 'string' } },
};

/** A JSON answer and, where `page` says what it shows, the HTML page a browser's form post gets instead. */
const answer = (description: string, json: JsonObject, page?: string, headers: JsonObject = {}): JsonObject => ({
  description,
  headers: { ...corsHeaders, ...headers },
  content: { ...json, ...(page ? { 'text/html': { schema: { type: 'string', description: page } } } : {}) },
});

const example = { name: 'Ada Lovelace', email: 'ada@example.com', message: 'Hello! I enjoyed your article.' };

export const contactPaths: Record<string, JsonObject> = {
  '/api/contact': {
    post: {
      operationId: 'sendContactMessage',
      summary: 'Send a message to the site owner',
      description: [
        'Sends the message to the owner by e-mail: plain text, from the site’s own address, with `Reply-To` set to the sender. No header can be injected through any field.',
        'The message is stored before the first attempt and kept until the mail server accepts it: `200` means accepted now, `202` means it is stored and will be delivered as soon as the mail server works again (retried with backoff). A message answered `200` or `202` is never lost.',
        'At most 5 messages per client per hour, however many arrive at once (a client is an IPv4 address or an IPv6 /64; invalid submissions do not count); then `429` with `Retry-After`, counted from the client’s oldest message within the hour. A filled honeypot field `website` is answered like a sent message and nothing is sent.',
        'Plain HTML forms work without script: a form post (`application/x-www-form-urlencoded`) whose `Accept` prefers HTML gets `303 See Other` back to the page it came from (when that page is on this site) with `?contact=sent` or `?contact=queued`, otherwise a small HTML page with the status below. JSON bodies, and clients that send `Accept: application/json`, always get JSON.',
        'Browsers may post from the site’s own origin only: a request whose `Origin` names another site is refused with `403`, and the CORS preflight (`OPTIONS`) allows the site’s own origin alone.',
      ].join('\n\n'),
      tags: ['Contact'],
      security: ANONYMOUS,
      requestBody: {
        required: true,
        description: 'At most 32 KiB. Leading and trailing white space is ignored; unknown fields are ignored.',
        content: {
          'application/json': { schema: ref('ContactRequest'), example },
          'application/x-www-form-urlencoded': { schema: ref('ContactRequest'), example: { ...example, website: '' } },
        },
      },
      responses: {
        '200': answer(
          'The mail server accepted the message.',
          jsonContent('ContactAccepted', { status: 'sent' }),
          'Form posts without a usable `Referer`: a page saying the message was sent.',
          headerRefs('Cache-Control'),
        ),
        '202': answer(
          'The mail server is failing; the message is stored and will be delivered as soon as it accepts it.',
          jsonContent('ContactAccepted', { status: 'queued' }),
          'Form posts without a usable `Referer`: a page saying the message will be delivered.',
          headerRefs('Cache-Control'),
        ),
        '303': {
          description:
            'Form posts from a page of this site: back to that page with `contact=sent` or `contact=queued` added to its query.',
          headers: {
            Location: {
              description: 'The page the form was posted from, e.g. `https://example.com/contact/?contact=sent`.',
              schema: { type: 'string', format: 'uri' },
            },
          },
        },
        '400': answer(
          'A field is missing or invalid (or the JSON does not parse); `issues` lists every problem.',
          jsonContent('Error', {
            error: 'invalid contact message',
            issues: [{ path: 'email', message: 'must be a valid e-mail address' }],
          }),
          'The problems, listed for a person, with a link back to the form.',
        ),
        '403': answer(
          'Posted by a page of another site (its `Origin` is not this site).',
          jsonContent('Error', { error: 'cross-site form posts are not accepted' }),
          'The same, for a person.',
        ),
        '405': errorResponseObject(
          'Only POST (and the OPTIONS preflight) is answered here; `Allow` lists them.',
          methodNotAllowed(['POST', 'OPTIONS']),
          ['Allow'],
        ),
        '413': answer(
          'The body is larger than 32 KiB.',
          jsonContent('Error', { error: 'body larger than 32768 bytes' }),
          'The same, for a person.',
        ),
        '415': answer(
          'The body is neither `application/json` nor `application/x-www-form-urlencoded`.',
          jsonContent('Error', { error: 'content type must be application/json or application/x-www-form-urlencoded' }),
        ),
        '429': answer(
          'More than 5 messages from this client (an IPv4 address or an IPv6 /64) within an hour; `Retry-After` says when its oldest one leaves the hour.',
          jsonContent('Error', { error: 'too many requests' }),
          'How long to wait, for a person.',
          headerRefs('Retry-After'),
        ),
        '503': answer(
          'E-mail is not configured (or, with `Retry-After`, the message store cannot be reached right now, or neither it nor the mail server works). Write to the `mailto` address instead; it is absent when the site offers none.',
          jsonContent('ContactUnavailable', { error: 'contact unavailable', mailto: 'mailto:hello@example.com' }),
          'The same, with the `mailto:` link.',
          {
            'Retry-After': {
              description:
                'Seconds to wait, only when the failure is temporary (mail server and message store both down).',
              required: false,
              schema: { type: 'integer', minimum: 1 },
            },
          },
        ),
      },
    },
  },
};
