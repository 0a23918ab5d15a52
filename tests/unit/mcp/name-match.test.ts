import { describe, expect, it } from 'vitest';
import { editDistance, matchName, normalizeName } from '../../../src/mcp/name-match.ts';
import { PARKS } from '../../../src/wait-times/parks.ts';

const parkNames = (park: (typeof PARKS)[number]) => [park.slug, park.name];
const RIDES = ['Test Track', 'Soarin\u2019 Around the World', 'Frozen Ever After', 'Spaceship Earth', 'Mission: SPACE'];

describe('normalizeName', () => {
  it('drops case, accents and punctuation and single-spaces the words', () => {
    expect(normalizeName('  Soarin\u2019 Around--the  Wörld! ')).toBe('soarin around the world');
  });
});

describe('editDistance', () => {
  it.each([
    ['', '', 0],
    ['kitten', 'sitting', 3],
    ['epcot', 'epcto', 2],
    ['abc', '', 3],
  ])('%s → %s takes %i edits', (a, b, edits) => {
    expect(editDistance(a, b)).toBe(edits);
  });
});

describe('matchName', () => {
  it.each([
    ['epcot', 'epcot'],
    ['EPCOT', 'epcot'],
    ['Magic Kingdom', 'magic-kingdom'],
    ['magic_kingdom', 'magic-kingdom'],
    ['magickingdom', 'magic-kingdom'],
    ['Magik Kingdom', 'magic-kingdom'],
    ['Epic Universse', 'epic-universe'],
    ['Volcano', 'volcano-bay'],
    ['California Adventure Park', 'california-adventure'],
    ['Épcot', 'epcot'],
  ])('finds the park %j as %s', (query, slug) => {
    const match = matchName(query, PARKS, parkNames);
    expect('found' in match && match.found.slug).toBe(slug);
  });

  it.each([
    ['Frozen', 'Frozen Ever After'],
    ['soarin around the world', 'Soarin\u2019 Around the World'],
    ['mission space', 'Mission: SPACE'],
    ['Spaceship Eart', 'Spaceship Earth'],
    ['tset track', 'Test Track'],
  ])('finds the ride %j as %s', (query, name) => {
    const match = matchName(query, RIDES, (ride) => [ride]);
    expect('found' in match && match.found).toBe(name);
  });

  it.each([
    // Part of three parks' names: ambiguous, and those three come first.
    ['studios', ['beta-studios-florida', 'hollywood-studios', 'beta-studios-hollywood']],
    ['Disneyland Tokyo', null],
    ['ep', null],
  ])('misses %j and lists the nearest names', (query, first) => {
    const match = matchName(query, PARKS, parkNames);
    expect('nearest' in match).toBe(true);
    if (!('nearest' in match)) return;
    expect(match.nearest).toHaveLength(5);
    if (first) expect(match.nearest.slice(0, first.length).sort()).toEqual([...first].sort());
  });

  it('misses a query two candidates are equally close to', () => {
    expect(matchName('cat', ['bat', 'hat'], (name) => [name])).toEqual({ nearest: ['bat', 'hat'] });
  });
});
