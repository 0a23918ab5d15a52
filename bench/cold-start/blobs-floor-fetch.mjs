// The same floor with the Blobs client's default transport, Node's built-in fetch: what our
// transport saves a cold start, measured in the same run.
import { getStore } from '@netlify/blobs';

export default async () => {
  await getStore({ name: 'cold-start-floor', consistency: 'strong' }).get('absent');
  return Response.json({ ok: true });
};
