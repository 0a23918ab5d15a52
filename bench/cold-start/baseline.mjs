// The cold-start baseline: a function that imports nothing and answers at once.
export default async () => Response.json({ ok: true });
