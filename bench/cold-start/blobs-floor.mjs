// The floor of a function that uses Blobs as ours do: reads one (absent) blob and answers. Its
// first request pays for what any such function pays once per process (the Blobs client, its
// first request and connection).
import { getStore } from '@netlify/blobs';

export default async () => {
  await getStore({ name: 'cold-start-floor', consistency: 'strong' }).get('absent');
  return Response.json({ ok: true });
};
