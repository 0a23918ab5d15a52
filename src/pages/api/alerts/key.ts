import { vapidPublicKey } from '../../../alerts/alerts.ts';
import { publicJsonRoutes } from '../../../platform/public-json-routes.ts';

export const prerender = false;

/** The key changes only with the site's settings; a new one reaches pages within this. */
const MAX_AGE_SECONDS = 300;

// 503 while VAPID is not configured: the park page then offers no "Notify me".
export const { GET, HEAD, OPTIONS, ALL } = publicJsonRoutes(async () => ({
  body: vapidPublicKey(),
  cache: { maxAge: MAX_AGE_SECONDS, kind: 'alerts-key' },
}));
