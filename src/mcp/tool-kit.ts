import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as z from '../platform/zod-mini.ts';
import { PARKS } from '../wait-times/parks.ts';
import { matchName } from './name-match.ts';

// What every MCP tool shares: the credits, the typed names and park input, the answer's shape.

/** queue-times.com's terms ask every use of its data to credit it with a link. */
export const CREDIT = 'Powered by Queue-Times.com (https://queue-times.com/)';
export const credit = z
  .literal(CREDIT)
  .check(z.describe('Credit the data source with this line wherever waits are shown.'));
/** Park hours come from ThemeParks.wiki, credited beside the waits. */
export const HOURS_CREDIT = 'Park hours: ThemeParks.wiki (https://themeparks.wiki/)';
export const hoursCredit = z
  .literal(HOURS_CREDIT)
  .check(z.describe('Credit the source of the hours with this line wherever they are shown.'));

/** A name an agent types: at least one character, at most `max`. */
export const typedName = (max: number, description: string) => {
  const help = `${description}; case, accents and small misspellings are fine.`;
  return z.string().check(z.minLength(1), z.maxLength(max), z.describe(help));
};
export const parkInput = { park: typedName(100, 'A park slug or name, e.g. "epcot" or "Magic Kingdom"') };
export const parkName = z.string().check(z.describe('The park as named here.'));

/** A tool's result: the structured value, and the text an agent host shows when it ignores structure. */
export const answer = (structured: Record<string, unknown>, text: string): CallToolResult => ({
  content: [{ type: 'text', text }],
  structuredContent: structured,
});

/** The candidate a query names, else an error with the nearest names (the SDK answers it as the tool's error result). */
export function find<T>(what: string, query: string, candidates: readonly T[], namesOf: (candidate: T) => string[]): T {
  const match = matchName(query, candidates, namesOf);
  if ('found' in match) return match.found;
  throw new Error(`Unknown ${what} "${query}". Nearest: ${match.nearest.join(', ')}.`);
}

export const findPark = (query: string) => find('park', query, PARKS, (park) => [park.slug, park.name]);
