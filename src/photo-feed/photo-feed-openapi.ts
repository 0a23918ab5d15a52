import { upstreamUnavailable } from '../platform/errors.ts';
import {
  errorResponseObject,
  type JsonObject,
  jsonContent,
  PUBLIC_HEADERS,
  publicGet,
} from '../platform/openapi-vocabulary.ts';

export const photoFeedPaths: Record<string, JsonObject> = {
  '/api/photo-feed': publicGet({
    operationId: 'getPhotoFeed',
    summary: 'Recent posts from the photo platform',
    description:
      "The owner's 12 most recent posts on the photo platform, reused for 5 minutes; after that the last data is answered at once while a refresh runs. When the platform fails, the last good feed (up to 24 hours old) is answered with its honest `updatedAt`. When the feature is not configured the answer is still 200, with `configured: false` and no items. Do not poll faster than every 5 minutes.",
    tag: 'Photo feed',
    ok: 'The feed; `items` may be empty.',
    content: jsonContent('PhotoFeed', {
      configured: true,
      updatedAt: 1795257000000,
      items: [
        {
          id: '17944140305561228',
          caption: 'Sunset over the lake',
          mediaType: 'image',
          imageUrl: 'https://media.photos.example/360790382_n.jpg',
          permalink: 'https://photos.example/p/Cut_iGvLvTh/',
          timestamp: '2026-11-15T12:50:35.000Z',
        },
      ],
    }),
    more: {
      '502': errorResponseObject(
        'The platform failed and there is no earlier feed (up to 24 hours old) to fall back on.',
        upstreamUnavailable(30),
        ['Retry-After', ...PUBLIC_HEADERS],
      ),
    },
  }),
};
