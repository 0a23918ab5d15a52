// The floor of a function that uses Blobs: reads one (absent) blob and answers. Its first request
// pays for what any such function pays once per process (fetch and its connection, the Blobs client).
import { getStore } from '@netlify/blobs';

export default async () => {
  await getStore({ name: 'cold-start-floor', consistency: 'strong' }).get('absent');
  return Response.json({ ok: true });
};
