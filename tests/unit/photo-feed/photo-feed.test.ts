import { describe, expect, it } from 'vitest';
import { readFixture } from '../../../scripts/fake-http-server.mts';
import { GraphMediaSchema, PhotoFeedSchema } from '../../../src/photo-feed/photo-feed-schemas.ts';
import { isoTimestamp, photoItemOf } from '../../../src/photo-feed/photo-platform-api.ts';
import { REFRESH_MIN_AGE_MS, REFRESH_WHEN_LEFT_MS, refreshDecision } from '../../../src/photo-feed/photo-token.ts';

const itemsOf = (file: string) =>
  (JSON.parse(readFixture(`photo-feed/${file}`)) as { data: unknown[] }).data.flatMap((raw) => {
    const item = photoItemOf(GraphMediaSchema.parse(raw));
    return item ? [item] : [];
  });

describe('photo platform posts as feed items', () => {
  it('reads the recorded answer: images, captions as written, timestamps in UTC', () => {
    const items = itemsOf('graph-me-media-recorded.json');
    expect(items).toHaveLength(3);
    expect(items[0]).toMatchObject({
      id: '17944140305561228',
      mediaType: 'image',
      permalink: 'https://www.instagram.com/p/Cut_iGvLvTh/',
      timestamp: '2023-07-15T12:50:35.000Z',
    });
    expect(items[0]?.imageUrl).toMatch(/^https:\/\/scontent\.cdninstagram\.com\/.+&oe=64BDD38B$/);
    expect(items[2]?.caption).toContain('\n');
    // Nothing of the platform's own vocabulary leaks through (username, media_url…).
    expect(Object.keys(items[0] ?? {})).toEqual(['id', 'caption', 'mediaType', 'imageUrl', 'permalink', 'timestamp']);
  });

  it('shows a video by its cover, an album by its first picture, and leaves out a video without media', () => {
    const items = itemsOf('graph-me-media-mixed.json');
    expect(items.map((item) => [item.mediaType, item.caption])).toEqual([
      ['image', 'Morning light over the harbour'],
      ['video', 'Coaster POV (sound on)'],
      ['carousel', null],
    ]);
    expect(items[1]?.imageUrl).toContain('402345678_');
    expect(PhotoFeedSchema.parse({ configured: true, updatedAt: 1, items }).items).toHaveLength(3);
  });

  it.each([
    ['an unknown media type', { media_type: 'STORY' }],
    ['a non-web image address', { media_url: 'javascript:alert(1)' }],
    ['a non-web permalink', { permalink: 'data:text/html,hi' }],
    ['no permalink', { permalink: undefined }],
    ['an unreadable timestamp', { timestamp: 'yesterday' }],
  ])('leaves out a post with %s', (_name, change) => {
    const media = {
      id: '1',
      media_type: 'IMAGE',
      media_url: 'https://scontent.cdninstagram.com/a.jpg',
      permalink: 'https://www.instagram.com/p/a/',
      timestamp: '2026-11-18T07:42:10+0000',
      ...change,
    };
    expect(photoItemOf(GraphMediaSchema.parse(media))).toBeNull();
  });

  it.each([
    ['2023-07-15T12:50:35+0000', '2023-07-15T12:50:35.000Z'],
    ['2026-08-01T12:00:00-0300', '2026-08-01T15:00:00.000Z'],
    ['2026-08-01T12:00:00+05:30', '2026-08-01T06:30:00.000Z'],
    ['2026-08-01T12:00:00Z', '2026-08-01T12:00:00.000Z'],
    ['not a time', null],
    [undefined, null],
  ])('reads the timestamp %s', (raw, iso) => {
    expect(isoTimestamp(raw)).toBe(iso);
  });
});

describe('when the token is refreshed', () => {
  const NOW = Date.parse('2026-11-21T03:30:00Z');
  const DAY = 86_400_000;
  const stored = (ageMs: number, leftMs: number) => ({
    accessToken: 'IGQ-token',
    lineage: 'lineage',
    refreshedAt: NOW - ageMs,
    expiresAt: NOW + leftMs,
  });

  it.each<[string, ReturnType<typeof stored> | null, boolean, boolean]>([
    ['never refreshed (age unknown)', null, true, false],
    ['refreshed 23 hours ago, near expiry', stored(REFRESH_MIN_AGE_MS - 3_600_000, 2 * DAY), false, false],
    ['refreshed a day ago, 59 days left', stored(REFRESH_MIN_AGE_MS, 59 * DAY), false, false],
    ['30 days and 1 ms left', stored(30 * DAY, REFRESH_WHEN_LEFT_MS + 1), false, false],
    ['exactly 30 days left', stored(30 * DAY, REFRESH_WHEN_LEFT_MS), true, false],
    ['3 days left', stored(57 * DAY, 3 * DAY), true, false],
    ['a minute left', stored(60 * DAY, 60_000), true, false],
    ['expired', stored(61 * DAY, -DAY), false, true],
    ['expiring this instant', stored(60 * DAY, 0), false, true],
  ])('%s', (_name, record, refresh, expired) => {
    const decision = refreshDecision(record, NOW);
    expect(decision.refresh).toBe(refresh);
    if (!decision.refresh) expect(decision.expired).toBe(expired);
  });
});
