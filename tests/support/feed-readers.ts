import { Readable } from 'node:stream';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import FeedParser from 'feedparser';

// Readers of our feeds as their subscribers read them: Atom through npm `feedparser` (the parser
// of Node-RED's feed node, strict XML), JSON Feed 1.1 against a JSON Schema written from its
// specification (https://www.jsonfeed.org/version/1.1/), which has no official one.

const text = { type: 'string' } as const;
const url = { type: 'string', format: 'uri' } as const;
/** `_`-prefixed keys are extensions (objects); anything else unknown is a mistake of ours. */
const extensions = { patternProperties: { '^_[A-Za-z]': { type: 'object' } }, additionalProperties: false } as const;
const author = {
  type: 'object',
  properties: { name: text, url, avatar: url },
  minProperties: 1,
  ...extensions,
} as const;

export const JSON_FEED_1_1_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  required: ['version', 'title', 'items'],
  properties: {
    version: { const: 'https://jsonfeed.org/version/1.1' },
    title: text,
    home_page_url: url,
    feed_url: url,
    description: text,
    user_comment: text,
    next_url: url,
    icon: url,
    favicon: url,
    authors: { type: 'array', items: author },
    language: text,
    expired: { type: 'boolean' },
    hubs: {
      type: 'array',
      items: { type: 'object', required: ['type', 'url'], properties: { type: text, url } },
    },
    items: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id'],
        // "content_html and content_text are each optional strings — but one or both must be present."
        anyOf: [{ required: ['content_html'] }, { required: ['content_text'] }],
        properties: {
          id: { type: 'string', minLength: 1 },
          url,
          external_url: url,
          title: text,
          content_html: text,
          content_text: text,
          summary: text,
          image: url,
          banner_image: url,
          date_published: { type: 'string', format: 'date-time' },
          date_modified: { type: 'string', format: 'date-time' },
          authors: { type: 'array', items: author },
          tags: { type: 'array', items: text },
          language: text,
          attachments: {
            type: 'array',
            items: {
              type: 'object',
              required: ['url', 'mime_type'],
              properties: {
                url,
                mime_type: text,
                title: text,
                size_in_bytes: { type: 'number' },
                duration_in_seconds: { type: 'number' },
              },
            },
          },
        },
        ...extensions,
      },
    },
  },
  ...extensions,
} as const;

// `strictRequired` off: the anyOf's `required` names properties defined beside it, not inside it.
const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false });
addFormats(ajv);
const validateJsonFeed = ajv.compile(JSON_FEED_1_1_SCHEMA);

/** A JSON Feed parsed and checked against the 1.1 specification; throws with the violations. */
export function readJsonFeed(body: string): Record<string, unknown> & { items: Record<string, unknown>[] } {
  const feed: unknown = JSON.parse(body);
  if (!validateJsonFeed(feed)) throw new Error(`not a JSON Feed 1.1: ${ajv.errorsText(validateJsonFeed.errors)}`);
  return feed as unknown as Record<string, unknown> & { items: Record<string, unknown>[] };
}

/** An Atom document read by feedparser in strict mode: its meta and items, or the parser's error. */
export async function readAtom(body: string): Promise<{ meta: FeedParser.Meta; items: FeedParser.Item[] }> {
  const parser = new FeedParser({ strict: true, normalize: true, addmeta: false });
  const items: FeedParser.Item[] = [];
  let meta: FeedParser.Meta | undefined;
  parser.on('meta', (value: FeedParser.Meta) => {
    meta = value;
  });
  await new Promise<void>((resolve, reject) => {
    parser.on('error', reject);
    parser.on('readable', () => {
      for (let item = parser.read(); item; item = parser.read()) items.push(item);
    });
    parser.on('end', resolve);
    Readable.from([body]).pipe(parser);
  });
  if (!meta) throw new Error('feedparser found no feed');
  return { meta, items };
}
