import { BLEND, type Blend, type BlendRow } from '../../src/wait-times/forecast/outlook.ts';
import type { DayHours } from '../../src/wait-times/hours/park-hours-schemas.ts';
import { fitLad } from './fit.ts';
import { ParkReplay, type ParkSeries } from './replay.ts';
import {
  BEST_TIME_HEADER,
  bestTimeGoals,
  bestTimeOf,
  bestTimeRows,
  dayRange,
  ERROR_HEADER,
  errorRows,
  GOALS,
  goalTexts,
  percent,
  ratioGoals,
  table,
} from './report.ts';
import { POOLED, SEGMENTS, Tally } from './tally.ts';

/**
 * Leave one park out: for each park, the outlook's BLEND is fitted on the training days of the
 * other parks, and the park, replayed from its first day and learning as production does, is
 * scored on its validation days (the last share of its park days). Nothing is tuned on the park
 * scored; each park is replayed once (its training days gather the fit rows the other folds use).
 */

export interface BacktestPark {
  code: string;
  name: string;
  series: ParkSeries;
  timeZone: string;
  /** The park's published hours by park day, given to the replay as production knows them; absent: not known. */
  hours?: ReadonlyMap<string, DayHours> | undefined;
}

export interface Fold {
  park: BacktestPark;
  tunedOn: string[];
  blend: Blend;
  days: { training: string[]; validation: string[] };
}

/** The fit's horizons: BLEND's rows from 60 minutes on (0 and 30 stay as they are). */
const FIT_HORIZONS = [60, 120, 240, 360];

export async function leaveOneParkOut(
  parks: readonly BacktestPark[],
  options: { trainShare: number; horizons: readonly number[]; log: (line: string) => void },
) {
  // Each park's training days once, gathering BLEND's fit rows; its validation days go on from there.
  const replays = new Map<BacktestPark, ParkReplay>();
  for (const park of parks) {
    const started = performance.now();
    const replayed = new ParkReplay(park.series, { timeZone: park.timeZone, trainShare: options.trainShare });
    const { hours } = park;
    replays.set(park, await replayed.run('training', { horizons: FIT_HORIZONS, fitOnly: true, hours }));
    options.log(`${park.name}: training days replayed (BLEND's fit rows) in ${seconds(started)}.`);
  }
  const folds: Fold[] = [];
  const tally = new Tally();
  for (const park of parks) {
    const started = performance.now();
    const tuning = parks.filter((other) => other !== park);
    const blend = blendFittedOn(tuning.map((other) => replays.get(other)?.fitRows ?? new Map()));
    const replayed = replays.get(park);
    if (!replayed) continue;
    await replayed.run('validation', { horizons: options.horizons, blend, hours: park.hours });
    folds.push({ park, tunedOn: tuning.map(({ code }) => code), blend, days: replayed.days });
    copyPooled(replayed.tally, tally, park.name, options.horizons);
    options.log(`${park.name}: validation days replayed and scored in ${seconds(started)}.`);
  }
  return { folds, tally };
}

/** BLEND with the rows from 60 minutes on fitted on `rows` (one map per tuning park), 0 and 30 as shipped. */
function blendFittedOn(rows: readonly Map<number, [number, number, number][]>[]): Blend {
  const fitted = FIT_HORIZONS.map((horizon): BlendRow => {
    const [chained, usual] = fitLad(rows.flatMap((byHorizon) => byHorizon.get(horizon) ?? []));
    return { horizon, chained, usual, sharpen: 0 };
  });
  return [BLEND[0], ...BLEND.slice(1).filter(({ horizon }) => horizon <= 30), ...fitted];
}

/** A park's validation figures, pooled over its rides, as one series of the leave-one-park-out tally. */
function copyPooled(from: Tally, to: Tally, park: string, horizons: readonly number[]): void {
  const parts = [...SEGMENTS.flatMap((segment) => horizons.map((h) => `${segment} ${h}`)), 'best time'];
  for (const part of parts) {
    const sums = from.get('validation', POOLED, part);
    if (sums) to.add('validation', park, [part], sums);
  }
}

/** The leave-one-park-out tables: each park and the four pooled, then the goals. */
export function leaveOneParkOutReport(folds: readonly Fold[], tally: Tally, title: string): string {
  const names = [...folds.map(({ park }) => park.name), POOLED];
  const tuned = (name: string) =>
    folds.find(({ park }) => park.name === name)?.tunedOn.join(', ') ?? 'the four left out';
  const days = (name: string) => {
    const fold = folds.find(({ park }) => park.name === name);
    return fold
      ? dayRange(fold.days.validation)
      : `${folds.reduce((n, f) => n + f.days.validation.length, 0)} park days`;
  };
  const rows = names.flatMap((name) =>
    errorRows(tally, 'validation', [name], name === POOLED ? SEGMENTS : ['all']).map(([series, ...cells]) => [
      series ?? name,
      tuned(name),
      days(name),
      ...cells,
    ]),
  );
  const [, ...bestHeader] = BEST_TIME_HEADER;
  const parksMissing = folds.filter(
    ({ park }) => !ratioGoals(tally, 'validation', park.name, GOALS.eachPark).every(({ met }) => met),
  );
  const bestMissing = folds.filter(({ park }) => !(bestTimeOf(tally, 'validation', park.name).below >= GOALS.bestTime));
  const perPark = folds.map(
    ({ park }) =>
      `- ${park.name}: ${goalTexts(ratioGoals(tally, 'validation', park.name, GOALS.eachPark))}; ${bestTimeGoals(tally, 'validation', park.name)}`,
  );
  return `## ${title}

${table(['Left-out park', 'BLEND tuned on', 'Validation days', ...ERROR_HEADER.slice(1)], rows)}

${table(['Left-out park', ...bestHeader], bestTimeRows(tally, 'validation', names))}

Goals, pooled over the left-out parks: ${goalTexts(ratioGoals(tally, 'validation', POOLED, GOALS.pooled))}; ${bestTimeGoals(tally, 'validation', POOLED)}.
Each park (≤ ${Object.values(GOALS.eachPark).join(' / ')}): ${parksMissing.length ? `missed in ${parksMissing.map(({ park }) => park.name).join(', ')}` : 'met in every park'}; best time ≥ ${percent(GOALS.bestTime)} in every park: ${bestMissing.length ? `missed in ${bestMissing.map(({ park }) => park.name).join(', ')}` : 'met'}.
${perPark.join('\n')}
`;
}

function seconds(started: number): string {
  return `${((performance.now() - started) / 1000).toFixed(1)} s`;
}
