// The floor of a function that uses Blobs as ours do: reads one (absent) blob over our transport
// (src/platform/store.ts) and answers. Its first request pays for what any such function
// pays once per process (the transport's first request and its connection, the Blobs client).
import { getStore } from '@netlify/blobs';
import { nodeHttpFetch } from '../../src/platform/store.ts';

export default async () => {
  await getStore({ name: 'cold-start-floor', consistency: 'strong', fetch: nodeHttpFetch }).get('absent');
  return Response.json({ ok: true });
};
