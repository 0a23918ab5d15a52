import * as z from '../platform/zod-mini.ts';

const webUrl = (description: string) => z.url({ protocol: /^https?$/ }).check(z.describe(description));

export const PhotoItemSchema = z
  .strictObject({
    id: z.string().check(z.describe("The photo platform's id of the post.")),
    caption: z.nullable(z.string()).check(z.describe('Caption as written; null when there is none.')),
    mediaType: z
      .enum(['image', 'video', 'carousel'])
      .check(
        z.describe('`image`, `video` (the image is its cover frame) or `carousel` (the image is its first picture).'),
      ),
    imageUrl: webUrl("An image to show for the post, on the platform's CDN; these addresses expire after some days."),
    permalink: webUrl('The post on the photo platform.'),
    timestamp: z.iso.datetime().check(z.describe('When the post was published (UTC).')),
  })
  .check(z.meta({ id: 'PhotoItem' }));

export const PhotoFeedSchema = z
  .strictObject({
    configured: z.boolean().check(z.describe('Whether the feed is set up; false means `items` is always empty.')),
    updatedAt: z
      .nullable(z.unixMs())
      .check(z.describe('Unix time in milliseconds of the fetch that produced `items`; null when unconfigured.')),
    items: z.array(PhotoItemSchema).check(z.describe('Recent posts, newest first; may be empty.')),
  })
  .check(
    z.meta({ id: 'PhotoFeed', description: 'Recent posts of the owner on the photo platform, cached for 5 minutes.' }),
  );

// Upstream payloads (the photo platform's Graph API).

/** One entry of `GET /me/media` with the fields we ask for; everything but the id may be missing. */
export const GraphMediaSchema = z.object({
  id: z.nonEmpty(),
  caption: z.optional(z.string()),
  media_type: z.optional(z.string()),
  media_url: z.optional(z.string()),
  thumbnail_url: z.optional(z.string()),
  permalink: z.optional(z.string()),
  timestamp: z.optional(z.string()),
});

export const GraphMediaPageSchema = z.object({ data: z.array(z.unknown()) });

/** `GET /refresh_access_token` answer. */
export const GraphTokenSchema = z.object({
  access_token: z.nonEmpty(),
  expires_in: z.number().check(z.int(), z.positive()),
});

/** Graph API error body, e.g. code 190 for an expired or invalid token. */
export const GraphErrorSchema = z.object({ error: z.object({ code: z.optional(z.number().check(z.int())) }) });

// Stored records (Blobs store `photo-feed`).

/** The last good feed, the fallback when the platform fails. */
export const StoredPhotoFeedSchema = z.object({ fetchedAt: z.unixMs(), items: z.array(PhotoItemSchema) });

/**
 * A refreshed long-lived token. `lineage` is a digest of the configured token it descends from,
 * so that a newly configured token replaces a refreshed old one.
 */
export const StoredPhotoTokenSchema = z.object({
  accessToken: z.nonEmpty(),
  lineage: z.nonEmpty(),
  refreshedAt: z.unixMs(),
  expiresAt: z.unixMs(),
});

export type PhotoItem = z.output<typeof PhotoItemSchema>;
export type PhotoFeed = z.output<typeof PhotoFeedSchema>;
export type GraphMedia = z.output<typeof GraphMediaSchema>;
export type StoredPhotoToken = z.output<typeof StoredPhotoTokenSchema>;
