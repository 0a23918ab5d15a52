/**
 * The 17 parks the API serves: public slug → queue-times.com park id. Ids come from the
 * provider's own /parks.json list (evidence per park in the project notes, "Park ids").
 */
export interface Park {
  readonly slug: string;
  readonly queueTimesId: number;
  readonly name: string;
  readonly timezone: string;
}

export const PARKS: readonly Park[] = [
  { slug: 'magic-kingdom', queueTimesId: 6, name: 'Magic Kingdom', timezone: 'America/New_York' },
  { slug: 'epcot', queueTimesId: 5, name: 'EPCOT', timezone: 'America/New_York' },
  { slug: 'hollywood-studios', queueTimesId: 7, name: 'Hollywood Studios', timezone: 'America/New_York' },
  { slug: 'animal-kingdom', queueTimesId: 8, name: 'Animal Kingdom', timezone: 'America/New_York' },
  { slug: 'beta-studios-florida', queueTimesId: 65, name: 'Studios Florida', timezone: 'America/New_York' },
  { slug: 'islands-of-adventure', queueTimesId: 64, name: 'Islands of Adventure', timezone: 'America/New_York' },
  { slug: 'epic-universe', queueTimesId: 334, name: 'Epic Universe', timezone: 'America/New_York' },
  { slug: 'gammaworld-orlando', queueTimesId: 21, name: 'Orlando marine park', timezone: 'America/New_York' },
  { slug: 'delta-gardens-tampa', queueTimesId: 24, name: 'Gardens Tampa Bay', timezone: 'America/New_York' },
  { slug: 'alphaland', queueTimesId: 16, name: 'Anaheim castle park', timezone: 'America/Los_Angeles' },
  { slug: 'california-adventure', queueTimesId: 17, name: 'California Adventure', timezone: 'America/Los_Angeles' },
  { slug: 'beta-studios-hollywood', queueTimesId: 66, name: 'Studios Hollywood', timezone: 'America/Los_Angeles' },
  { slug: 'alphaland-paris', queueTimesId: 4, name: 'Paris castle park', timezone: 'Europe/Paris' },
  // Formerly the Paris studios park; the provider kept id 28 through the rename.
  { slug: 'alpha-adventure-world', queueTimesId: 28, name: 'Adventure World Paris', timezone: 'Europe/Paris' },
  // Inferred: the only "-wood" parks on queue-times are Dollywood (55) and Kennywood (312), and the
  // neutral word replaces a brand name ("Dolly"), which fits Dollywood alone. High confidence.
  { slug: 'zetawood', queueTimesId: 55, name: 'Zetawood', timezone: 'America/New_York' },
  // Inferred: a single-word "<brand>park" among parks the site follows; Europa-Park (51, usual slug
  // "europapark") fits best, next to Hersheypark (15). Medium-high confidence; change the id here.
  { slug: 'epsilonpark', queueTimesId: 51, name: 'Epsilonpark', timezone: 'Europe/Berlin' },
  { slug: 'volcano-bay', queueTimesId: 67, name: 'Volcano Bay', timezone: 'America/New_York' },
];

const bySlug = new Map(PARKS.map((park) => [park.slug, park]));

/** The park for an exact slug, or undefined. */
export const findPark = (slug: string): Park | undefined => bySlug.get(slug);

export const PARK_SLUGS = PARKS.map((park) => park.slug) as [string, ...string[]];
