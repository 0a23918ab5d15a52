import * as z from '../../platform/zod-mini.ts';

// The recorder's report of one run (record-waits.ts): the jobs feature keeps it in the run record
// and answers it in GET /api/recorder-status.

const slugs = (description: string) => z.array(z.string()).check(z.describe(description));

export const RecorderParksSchema = z
  .strictObject({
    polled: slugs('Parks asked for their live waits, and recorded.'),
    closed: slugs("Parks not asked: outside today's hours (or, unknown, the usual day) with 30 minutes either side."),
    alreadyRecorded: slugs(
      'Parks not asked because this 5-minute period was already asked for (a visitor, another instance or an overlapping run).',
    ),
    failed: z
      .array(z.strictObject({ park: z.string(), error: z.string().check(z.describe('Why, in a sentence.')) }))
      .check(z.describe('Parks whose request or recording failed; the next run tries again.')),
  })
  .check(z.meta({ id: 'RecorderParks', description: 'What the newest finished run did with each park, by slug.' }));

export type RecorderParks = z.output<typeof RecorderParksSchema>;
