import * as z from 'zod';

// ---------------------------------------------------------------------------------------------
// Public body (GET /api/photo-feed)
// ---------------------------------------------------------------------------------------------

const webUrl = (description: string) => z.url({ protocol: /^https?$/ }).meta({ description });

export const PhotoItemSchema = z
  .object({
    id: z.string().meta({ description: "The photo platform's id of the post." }),
    caption: z.string().nullable().meta({ description: 'Caption as written; null when there is none.' }),
    mediaType: z.enum(['image', 'video', 'carousel']).meta({
      description: '`image`, `video` (the image is its cover frame) or `carousel` (the image is its first picture).',
    }),
    imageUrl: webUrl("An image to show for the post, on the platform's CDN; these addresses expire after some days."),
    permalink: webUrl('The post on the photo platform.'),
    timestamp: z.iso.datetime().meta({ description: 'When the post was published (UTC).' }),
  })
  .strict()
  .meta({ id: 'PhotoItem' });

export const PhotoFeedSchema = z
  .object({
    configured: z.boolean().meta({ description: 'Whether the feed is set up; false means `items` is always empty.' }),
    updatedAt: z.int().min(0).nullable().meta({
      description: 'Unix time in milliseconds of the fetch that produced `items`; null when unconfigured.',
    }),
    items: z.array(PhotoItemSchema).meta({ description: 'Recent posts, newest first; may be empty.' }),
  })
  .strict()
  .meta({ id: 'PhotoFeed', description: 'Recent posts of the owner on the photo platform, cached for 5 minutes.' });

// ---------------------------------------------------------------------------------------------
// Upstream payloads (the photo platform's Graph API)
// ---------------------------------------------------------------------------------------------

/** One entry of `GET /me/media` with the fields we ask for; everything but the id may be missing. */
export const GraphMediaSchema = z.object({
  id: z.string().min(1),
  caption: z.string().optional(),
  media_type: z.string().optional(),
  media_url: z.string().optional(),
  thumbnail_url: z.string().optional(),
  permalink: z.string().optional(),
  timestamp: z.string().optional(),
});

export const GraphMediaPageSchema = z.object({
  data: z.array(z.unknown()),
});

/** `GET /refresh_access_token` answer. */
export const GraphTokenSchema = z.object({
  access_token: z.string().min(1),
  token_type: z.string().optional(),
  expires_in: z.number().int().positive(),
});

/** Graph API error body, e.g. code 190 for an expired or invalid token. */
export const GraphErrorSchema = z.object({
  error: z.object({
    message: z.string().optional(),
    type: z.string().optional(),
    code: z.number().int().optional(),
    error_subcode: z.number().int().optional(),
  }),
});

// ---------------------------------------------------------------------------------------------
// Stored records (Blobs store `photo-feed`)
// ---------------------------------------------------------------------------------------------

/** The last good feed, the fallback when the platform fails. */
export const StoredPhotoFeedSchema = z.object({
  fetchedAt: z.int().min(0),
  items: z.array(PhotoItemSchema),
});

/**
 * A refreshed long-lived token. `lineage` is a digest of the configured token it descends from,
 * so that a newly configured token replaces a refreshed old one.
 */
export const StoredPhotoTokenSchema = z.object({
  accessToken: z.string().min(1),
  lineage: z.string().min(1),
  refreshedAt: z.int().min(0),
  expiresAt: z.int().min(0),
});

export type PhotoItem = z.output<typeof PhotoItemSchema>;
export type PhotoFeed = z.output<typeof PhotoFeedSchema>;
export type GraphMedia = z.output<typeof GraphMediaSchema>;
export type StoredPhotoFeed = z.output<typeof StoredPhotoFeedSchema>;
export type StoredPhotoToken = z.output<typeof StoredPhotoTokenSchema>;
