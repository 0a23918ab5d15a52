import { describe, expect, it } from 'vitest';
import { parseParkHours } from '../../../scripts/backtest/park-hours.ts';
import { parsePostedWaits } from '../../../scripts/backtest/posted-waits.ts';
import { shippedSeriesOf } from '../../../scripts/backtest/touringplans.ts';
import { EASTERN, eastern } from '../../support/touringplans.ts';

const asUtc = (wall: number) => wall;
const utc = (reading: string) => Date.parse(`${reading.replace(' ', 'T')}Z`);

describe('parsePostedWaits on the 2018 layout (TouringPlans.com)', () => {
  // The first rows of 2018/dinosaur.csv as published: decimals, -999.0 when down, actual waits in their own rows.
  const csv = [
    'date,datetime,wait_time(posted),wait_time(actual)',
    '2018-01-01,2018-01-01 07:54:00,-999.0,',
    '2018-01-01,2018-01-01 08:01:00,5.0,',
    '2018-01-01,2018-01-01 08:05:00,,12.0',
    '2018-01-01,2018-01-01 08:10:00,15.0,',
  ].join('\n');

  it('reads the posted column by its name, -999.0 as down, and ignores the actual waits', () => {
    expect(parsePostedWaits(csv, asUtc).samples.map(({ at, wait }) => [at, wait])).toEqual([
      [utc('2018-01-01 07:54'), null],
      [utc('2018-01-01 08:01'), 5],
      [utc('2018-01-01 08:10'), 15],
    ]);
  });

  it('names both posted columns when neither is there', () => {
    expect(() => parsePostedWaits('date,datetime,wait_time(actual)\n', asUtc)).toThrow(
      /"SPOSTMIN" or "wait_time\(posted\)"/,
    );
  });
});

describe('parseParkHours (TouringPlans.com park metadata)', () => {
  // Real rows of touringplans_metadata.csv cut to the columns read (and one regular-hours column
  // the parser must not take): MK's Extra Magic Hours 7:00–27:00 on 30 Dec 2017 against regular
  // 8:00–25:00; the regular closings and events follow the EMH windows.
  const header =
    'DATE,MKOPEN,MKEMHOPEN,MKEMHCLOSE,EPEMHOPEN,EPEMHCLOSE,HSEMHOPEN,HSEMHCLOSE,AKEMHOPEN,AKEMHCLOSE,' +
    'MKCLOSE,EPCLOSE,HSCLOSE,AKCLOSE,MKeventN,EPeventN,HSeventN,AKeventN';
  const rows = [
    '12/30/2017,8:00,7:00,27:00,8:00,22:30,9:00,22:00,8:00,22:00,25:00,22:30,22:00,22:00,mkhol,,,',
    '11/04/2018,9:00,7:45,22:00,9:00,21:00,9:00,22:00,9:00,20:00,22:00,21:00,22:00,20:00,emm,epfw,,', // clocks went back at 02:00
    '03/11/2018,8:00,8:00,23:00,9:00,21:00,8:00,21:00,8:00,22:00,23:00,21:00,21:00,22:00,,,,', // clocks went forward at 02:00
    // A party evening: the park closed to day guests at 18:00; the file's EMH columns run to the party's end.
    '09/14/2018,9:00,8:00,24:00,9:00,21:00,9:00,21:00,9:00,20:00,18:00,21:00,21:00,20:00,mnsshp,epfw,,',
    '12/14/2018,9:00,8:00,24:00,9:00,21:00,9:00,21:00,9:00,20:00,18:00,21:00,21:00,20:00,emm|mvmcp,,,',
  ];
  const { hours, skipped } = parseParkHours([header, ...rows].join('\r\n'), EASTERN);

  it.each([
    ['MK', '2017-12-30', '2017-12-30 07:00', '2017-12-31 03:00'], // 27:00 is 03:00 the next morning
    ['EP', '2017-12-30', '2017-12-30 08:00', '2017-12-30 22:30'],
    ['AK', '2018-11-04', '2018-11-04 09:00', '2018-11-04 20:00'], // EST
    ['MK', '2018-11-04', '2018-11-04 07:45', '2018-11-04 22:00'],
    ['HS', '2018-03-11', '2018-03-11 08:00', '2018-03-11 21:00'], // EDT
    ['MK', '2018-09-14', '2018-09-14 08:00', '2018-09-14 18:00'], // the Halloween party is not the public day
    ['MK', '2018-12-14', '2018-12-14 08:00', '2018-12-14 18:00'], // nor the Christmas party
    ['EP', '2018-09-14', '2018-09-14 09:00', '2018-09-14 21:00'], // a festival changes nothing
  ] as const)(
    '%s on %s opens at %s and closes at %s, Eastern, Extra Magic Hours included, ticketed parties not',
    (park, date, opens, closes) => {
      expect(hours[park].get(date)).toEqual({ opensAt: eastern(opens), closesAt: eastern(closes) });
    },
  );

  it('keeps the offset of each moment across a change of clocks', () => {
    expect(hours.AK.get('2018-11-04')?.opensAt).toBe(utc('2018-11-04 14:00')); // UTC−5
    expect(hours.HS.get('2018-03-11')?.closesAt).toBe(utc('2018-03-12 01:00')); // UTC−4
    expect(skipped).toBe(0);
  });

  it.each([
    ['a missing closing', '01/02/2018,9:00,9:00,,9:00,21:00,9:00,21:00,9:00,20:00', 'MK'],
    ['a closing before the opening', '01/02/2018,9:00,9:00,21:00,9:00,8:00,9:00,21:00,9:00,20:00', 'EP'],
    ['an unreadable clock', '01/02/2018,9:00,9:00,21:00,9:00,21:00,9h00,21:00,9:00,20:00', 'HS'],
    ['a clock past the next morning', '01/02/2018,9:00,9:00,21:00,9:00,21:00,9:00,21:00,9:00,30:00', 'AK'],
  ] as const)('leaves out a park day with %s, counting it, and keeps the other parks', (_case, row, park) => {
    const parsed = parseParkHours(`${header}\n${row}\n`, EASTERN);
    expect(parsed.skipped).toBe(1);
    expect(parsed.hours[park].size).toBe(0);
    expect(['MK', 'EP', 'HS', 'AK'].map((code) => parsed.hours[code as typeof park].size).sort()).toEqual([0, 1, 1, 1]);
  });

  it('leaves out a row whose date is not a real one', () => {
    const parsed = parseParkHours(`${header}\n02/30/2018,9:00,9:00,21:00,9:00,21:00,9:00,21:00,9:00,20:00\n`, EASTERN);
    expect([parsed.skipped, parsed.hours.MK.size]).toEqual([4, 0]);
  });

  it('refuses a file without a column it needs, naming it', () => {
    expect(() => parseParkHours('DATE,MKEMHOPEN,MKEMHCLOSE,MKCLOSE,MKeventN\n', EASTERN)).toThrow(/"EPEMHOPEN"/);
  });
});

describe('shippedSeriesOf', () => {
  it.each([
    ['../shared/data/touringplans/AK85.csv', "Na'vi River Journey (AK85)", 'AK'],
    ['/data/touringplans/2018/splash_mountain.csv', 'Splash Mountain', 'MK'],
  ])('knows %s', (file, ride, park) => {
    expect(shippedSeriesOf(file)).toMatchObject({ ride, park });
  });

  it('does not guess another file', () => {
    expect(shippedSeriesOf('elsewhere/dinosaur.csv')).toBeUndefined();
  });
});
