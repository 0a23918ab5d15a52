import { shiftDate } from '../local-time.ts';
import { accuracyBody } from './accuracy.ts';
import type { Accuracy, GradedHorizon, ParkDayGrades } from './accuracy-schemas.ts';
import { mulberry32 } from './bootstrap.ts';

/** How a SYNTHETIC park grades per day at one horizon: forecasts a day, and the mean errors around which days vary. */
export interface SyntheticHorizon {
  n: number;
  mae: number;
  bias: number;
  maePersistence: number;
  maeUsual: number;
  within5: number;
  within10: number;
}

/**
 * SYNTHETIC grades (not measured anywhere): `days` park-days ending on `to`, each day's errors the
 * given means times a seeded factor within ±`spread`, so tests and the OpenAPI example know what
 * the scorecard should say about them.
 */
export function syntheticParkDays(
  park: string,
  to: string,
  days: number,
  horizons: Record<GradedHorizon, SyntheticHorizon>,
  { seed = 1, spread = 0.1 }: { seed?: number; spread?: number } = {},
): ParkDayGrades[] {
  const random = mulberry32(seed);
  const vary = () => 1 + spread * (2 * random() - 1);
  return Array.from({ length: days }, (_, index) => {
    const date = shiftDate(to, index - days + 1);
    const sums = (minutes: GradedHorizon) => {
      const { n, mae, bias, maePersistence, maeUsual, within5, within10 } = horizons[minutes];
      return {
        n,
        absError: n * mae * vary(),
        error: n * bias,
        absErrorPersistence: n * maePersistence * vary(),
        absErrorUsual: n * maeUsual * vary(),
        within5: Math.round(n * within5),
        within10: Math.round(n * within10),
      };
    };
    const bestTimeN = horizons[30].n;
    return {
      version: 1,
      park,
      date,
      gradedAt: Date.parse(`${shiftDate(date, 1)}T08:00:00Z`),
      horizons: { 30: sums(30), 60: sums(60), 120: sums(120) },
      bestTime: {
        n: bestTimeN,
        atBest: bestTimeN * 18 * vary(),
        restMean: bestTimeN * 27,
        regret: bestTimeN * 4 * vary(),
      },
    } satisfies ParkDayGrades;
  });
}

/** A SYNTHETIC park whose model beats both references at 30 and 60 minutes and loses to the usual day at 120. */
export const SYNTHETIC_PARK: Record<GradedHorizon, SyntheticHorizon> = {
  30: { n: 520, mae: 4.6, bias: 0.4, maePersistence: 5.3, maeUsual: 7.1, within5: 0.68, within10: 0.9 },
  60: { n: 480, mae: 6.7, bias: 0.9, maePersistence: 7.9, maeUsual: 7.5, within5: 0.52, within10: 0.8 },
  120: { n: 400, mae: 8.9, bias: 1.6, maePersistence: 10.7, maeUsual: 8.2, within5: 0.4, within10: 0.68 },
};

/** The OpenAPI example: `GET /api/accuracy?park=epcot` over 28 SYNTHETIC graded days, run through the real code. */
export function accuracyExample(): Accuracy {
  const days = syntheticParkDays('epcot', '2026-11-20', 28, SYNTHETIC_PARK, { seed: 44 });
  return accuracyBody(new Map([['epcot', days]]));
}
