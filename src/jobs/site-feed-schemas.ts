import * as z from '../platform/zod-mini.ts';

/**
 * JSON Feed 1.0 / 1.1 (https://www.jsonfeed.org/version/1.1/), the parts the sharing job reads.
 * `id` is a string in 1.1; 1.0 feeds sometimes used numbers, which the spec says to treat as strings.
 */
export const JsonFeedItemSchema = z.object({
  id: z.pipe(z.union([z.string().check(z.minLength(1)), z.number()]), z.transform(String)),
  url: z.optional(z.string()),
  title: z.optional(z.string()),
  summary: z.optional(z.string()),
  content_text: z.optional(z.string()),
  date_published: z.optional(z.string()),
});

export const JsonFeedSchema = z.object({
  version: z.string().check(z.regex(/^https?:\/\/jsonfeed\.org\/version\/1(\.1)?$/, 'is not a JSON Feed version URL')),
  items: z.array(z.unknown()),
});

/** A post of the site as the sharing job sees it. */
export interface FeedPost {
  /** Stable id: the JSON Feed item's `id`. */
  id: string;
  url: string;
  title: string;
  summary: string | null;
  /** Unix milliseconds, or null when the feed gives no (valid) date. */
  publishedAt: number | null;
}
