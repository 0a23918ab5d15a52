import { CLOSING_MINUTES, OPENING_MINUTES } from '../../src/wait-times/outages/moment-shares.ts';
import { OUTAGE_RULES } from '../../src/wait-times/outages/outage-rules.ts';
import { MIN_RUNNING } from '../../src/wait-times/outages/reopen-odds.ts';
import { type OutagePark, parkOutagesOf } from './outages.ts';
import { calibrationOf, ceilingOf, type Horizon, type Score, scoreOutages, skillOf } from './outages-score.ts';
import { dayRange, table } from './report.ts';

/** `npm run backtest -- --outages`: the report, with its one machine-readable line and the goals. */

const HORIZONS: readonly Horizon[] = [15, 30, 60];
export const OUTAGE_GOALS = { pooled: { 15: 0.1, 30: 0.1, 60: 0.05 }, eachPark: 0, calibration: 5 } as const;

const two = (value: number) => (Number.isFinite(value) ? value.toFixed(2) : '–');

/** `Outages, pooled: Brier skill 0.18 at 15 min, 0.21 at 30 min, 0.11 at 60 min; calibration 3.2 points; 4344 moments` */
export function pooledLine(score: Score): string {
  const skills = HORIZONS.map((horizon) => `${two(skillOf(score, horizon))} at ${horizon} min`).join(', ');
  return `Outages, pooled: Brier skill ${skills}; calibration ${calibrationOf(score).toFixed(1)} points; ${score.moments} moments`;
}

/** Runs the outage backtest over the parks and prints it; returns whether every goal was met. */
export function reportOutages(parks: readonly OutagePark[], trainShare: number, log: (line: string) => void): boolean {
  const found = parks.map((park) => parkOutagesOf(park, trainShare));
  const { byPark, pooled } = scoreOutages(found);
  const rows = found.map((park) => {
    const score = byPark.get(park.code);
    const inTraining = new Set(park.training);
    const trainingOutages = park.found.filter((item) => inTraining.has(item.day)).length;
    const cells = score
      ? [
          String(score.moments),
          ...HORIZONS.map((horizon) => two(skillOf(score, horizon))),
          calibrationOf(score).toFixed(1),
          `${Math.round((100 * score.pooled) / Math.max(1, score.moments))} %`,
        ]
      : [];
    return [
      park.name,
      `${park.validation.length} (${dayRange(park.validation).split(', ')[1] ?? ''})`,
      `${trainingOutages} / ${park.found.length - trainingOutages}`,
      ...cells,
    ];
  });
  log(`Outages: TouringPlans.com down periods (-999) read with the service's rules (docs/outages.md): two closed
observations in a row after an open one while the park is open; not ${OUTAGE_RULES.holdRides} or more rides closing in one
5-minute slot, the last 30 minutes before closing, or a half hour closed on ${OUTAGE_RULES.scheduledOn} of the ride's last ${OUTAGE_RULES.scheduledDays}
days; censored at closing, at a gap over 15 minutes between a ride's observations, at 04:00. Odds from
the training days' outages: per elapsed bucket and part of the day (the first ${OPENING_MINUTES} minutes, the last
${CLOSING_MINUTES}, the rest), the share of down moments reopened within the horizon, a ride down at the closing not
back (per park pulled towards the pool, the pool's alone below ${MIN_RUNNING} still running), cut at the
closing; scored at every validation moment a ride is down against the training share of down moments
reopened within the horizon, same scope. ${found.reduce((sum, park) => sum + park.holds, 0)} park holds left out; ${found.reduce((sum, park) => sum + park.derivedHours, 0)} park days without published hours (their posted span used).
`);
  log(
    table(
      [
        'Park',
        'Validation days',
        'Outages (training / validation)',
        'Moments',
        'Skill 15',
        'Skill 30',
        'Skill 60',
        'Calibration (points)',
        'From the pool',
      ],
      rows,
    ),
  );
  log('');
  log(pooledLine(pooled));
  const elapsedOnly = scoreOutages(found, { closing: false }).pooled;
  log(
    `Elapsed time alone (the bucket's odds, no part of the day, no cut at the closing): ${pooledLine(elapsedOnly).replace('Outages, pooled: ', '')}.`,
  );
  const ceiling = (phased: boolean) =>
    HORIZONS.map((horizon) => `${two(ceilingOf(pooled, horizon, phased))} at ${horizon} min`).join(', ');
  log(
    `Ceiling of elapsed time alone (an oracle serving each park and bucket the validation days' own rate): skill ${ceiling(false)}; with the part of the day (opening, day, closing): ${ceiling(true)}.`,
  );
  const goals = [
    ...HORIZONS.map((horizon) => skillOf(pooled, horizon) >= OUTAGE_GOALS.pooled[horizon]),
    ...[...byPark.values()].flatMap((score) =>
      HORIZONS.map((horizon) => skillOf(score, horizon) > OUTAGE_GOALS.eachPark),
    ),
    calibrationOf(pooled) <= OUTAGE_GOALS.calibration,
  ];
  const met = goals.every(Boolean);
  log(
    `Goals (skill ≥ 0.10 at 15 and 30, ≥ 0.05 at 60 pooled; > 0 in every park; calibration ≤ 5 points): ${met ? 'met' : 'NOT met'}.`,
  );
  return met;
}
