import { getConfig } from '../../../../platform/config.ts';
import { publicJsonRoutes } from '../../../../platform/public-json-routes.ts';
import { getEventFeed, parkOfPath } from '../../../../wait-times/events/event-feed.ts';
import { FILTER_PARAMETERS } from '../../../../wait-times/events/event-filters.ts';

export const prerender = false;

// The Atom feed (RFC 4287) of a park's events; events.ts is the same as JSON Feed 1.1.
export const { GET, HEAD, OPTIONS, ALL } = publicJsonRoutes(
  async ({ params, url }) => {
    const park = parkOfPath(params.slug);
    const feed = await getEventFeed(park, url.searchParams, 'atom', { siteUrl: getConfig().SITE_URL });
    return {
      body: null,
      text: { body: feed.body, contentType: feed.contentType },
      cache: { maxAge: feed.maxAgeSeconds, kind: 'events', park: park.slug },
    };
  },
  [],
  FILTER_PARAMETERS,
);
