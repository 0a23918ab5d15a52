/**
 * GET /api/parks in the OpenAPI document. Its example is produced by the real code: Magic Kingdom's
 * recorded ThemeParks.wiki schedule (fixtures/themeparks-wiki) read at 14:00 in Orlando on the day
 * it was captured; no other park's schedule is recorded, so the example shows them as unknown.
 */
import capture from '../../../fixtures/themeparks-wiki/themeparks-wiki_schedule_magic-kingdom_2026-04-15_themeparks-js.json' with {
  type: 'json',
};
import { type JsonObject, jsonContent, publicGet } from '../../platform/openapi-vocabulary.ts';
import { PARKS } from '../parks.ts';
import { currentDayOf } from './park-hours.ts';
import { ParkListSchema } from './park-hours-schemas.ts';
import { parkListBody } from './park-list.ts';
import { scheduleRowsOf } from './themeparks-wiki.ts';

const EXAMPLE_AT = Date.parse('2026-04-15T14:00:00-04:00');

function parkListExample() {
  const rows = scheduleRowsOf(capture, 'example');
  const entries = PARKS.map((park) => ({
    park,
    hours: park.slug === 'magic-kingdom' ? currentDayOf(rows, EXAMPLE_AT, park.timezone) : null,
  }));
  return ParkListSchema.parse(parkListBody(entries, EXAMPLE_AT));
}

export const parkHoursPaths: Record<string, JsonObject> = {
  '/api/parks': publicGet({
    operationId: 'listParks',
    summary: "Every park with today's published hours and whether it is open now",
    description:
      "The 17 parks the API follows (the slugs every `park` parameter takes), each with its local date, its published public day and whether it is open now. Hours come from ThemeParks.wiki: credit \"Park hours: ThemeParks.wiki\" wherever they are shown, beside the wait-time credit. The public day is the park's `OPERATING` hours; early entry, extended evenings and ticketed events are listed apart in `extras`. From local midnight until a previous day's closing after midnight, that previous day is still the one shown. `hours` is null when unknown (no published row for the day, or the provider unavailable with no copy younger than 48 hours): unknown never means closed. Schedules are fetched about every 4 hours; this answer is cached for 5 minutes at most, never past the next opening or closing.\n\nThe example is Magic Kingdom's real schedule (recorded on 15 April 2026) read at 14:00 in Orlando; the other parks' schedules were not recorded, so they show as unknown.",
    tag: 'Wait times',
    ok: 'Every park, by slug.',
    content: jsonContent('ParkList', parkListExample()),
  }),
};
