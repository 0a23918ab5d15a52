import { describe, expect, it } from 'vitest';
import { GRADED_HORIZONS, type ServedForecast } from '../../../../src/wait-times/accuracy/accuracy-schemas.ts';
import { bestTimeCheck, forecastErrors, gradeDay, recordedNear } from '../../../../src/wait-times/accuracy/grading.ts';
import type { DayRecord } from '../../../../src/wait-times/day/history-schemas.ts';

const MINUTE = 60_000;
const T0 = Date.parse('2026-07-04T10:00:00Z');
const at = (minutes: number) => T0 + minutes * MINUTE;

/** A ride recorded every 5 minutes from T0: its waits (null: closed). */
const recorded = (waits: (number | null)[]) => ({ times: waits.map((_, index) => at(5 * index)), waits });

const served = (minutes: number, fields: Partial<ServedForecast> = {}): ServedForecast => ({
  at: at(minutes),
  wait: 20,
  forecasts: { 30: 25, 60: 30, 120: 35 },
  usual: { 30: 20, 60: 25, 120: 30 },
  bestTime: null,
  ...fields,
});

describe('the truth of a forecast', () => {
  const ride = recorded([10, 15, null, 25]);
  it.each([
    ['a sample at the target', 5, 15],
    ['the nearest sample, 2 minutes before', 7, 15],
    ['the nearest sample, 2 minutes after', 8, null],
    ['the earlier of two as near', 2.5, 10],
    ['a sample 5 minutes away', 20, 25],
    ['nothing past 5 minutes away', 21, undefined],
    ['nothing before the first sample by more than 5 minutes', -6, undefined],
  ])('is %s', (_, minutes, expected) => {
    expect(recordedNear(ride.times, ride.waits, at(minutes))).toBe(expected);
  });
  it('is null where the ride was closed at the nearest sample', () => {
    expect(recordedNear(ride.times, ride.waits, at(10))).toBeNull();
  });
});

describe('the errors of one forecast', () => {
  it.each([
    [
      'too long',
      { forecast: 30, wait: 20, usual: 25 },
      22,
      { absError: 8, error: 8, absErrorPersistence: 2, absErrorUsual: 3 },
    ],
    [
      'too short',
      { forecast: 10, wait: 20, usual: 25 },
      22,
      { absError: 12, error: -12, absErrorPersistence: 2, absErrorUsual: 3 },
    ],
    [
      'the usual unknown: persistence stands in',
      { forecast: 20, wait: 15, usual: null },
      30,
      { absError: 10, error: -10, absErrorPersistence: 15, absErrorUsual: 15 },
    ],
  ])('%s', (_, forecast, actual, expected) => {
    expect(forecastErrors(forecast, actual)).toEqual(expected);
  });
});

describe('a graded park-day', () => {
  const dayOf = (waits: (number | null)[]): DayRecord => {
    const { times } = recorded(waits);
    return { version: 1, date: '2026-07-04', times, rides: { '1': { name: 'A', waits } } };
  };

  it('sums each horizon where the ride was open at the target, with the shares within 5 and 10 minutes', () => {
    // 0–150 minutes every 5: 20 throughout, 40 at 60 minutes, closed at 120.
    const waits = Array.from({ length: 31 }, (_, index) => (index === 12 ? 40 : index === 24 ? null : 20));
    const grades = gradeDay(new Map([['1', [served(0, { forecasts: { 30: 25, 60: 30, 120: 35 } })]]]), dayOf(waits));
    expect(grades.horizons[30]).toEqual({
      n: 1,
      absError: 5,
      error: 5,
      absErrorPersistence: 0,
      absErrorUsual: 0,
      within5: 1,
      within10: 1,
    });
    expect(grades.horizons[60]).toEqual({
      n: 1,
      absError: 10,
      error: -10,
      absErrorPersistence: 20,
      absErrorUsual: 15,
      within5: 0,
      within10: 1,
    });
    // Closed at the target: not graded.
    expect(grades.horizons[120].n).toBe(0);
  });

  it('grades nothing of a ride the day did not record, nor a target past its last sample', () => {
    const grades = gradeDay(
      new Map([
        ['2', [served(0)]],
        ['1', [served(0)]],
      ]),
      dayOf([20, 20, 20]),
    );
    expect(GRADED_HORIZONS.map((horizon) => grades.horizons[horizon].n)).toEqual([0, 0, 0]);
  });
});

describe('the best time served', () => {
  // Recorded every 5 minutes from T0: 30, 25, 20, 10, closed, 15, 35.
  const ride = recorded([30, 25, 20, 10, null, 15, 35]);
  it.each([
    ['no best time served', null, undefined],
    ['nothing recorded near the advice', { at: at(60), wait: 10 }, undefined],
    ['the ride closed at the advice', { at: at(20), wait: 10 }, undefined],
  ])('is not checked with %s', (_, bestTime, expected) => {
    expect(bestTimeCheck(served(0, { bestTime }), ride)).toBe(expected);
  });

  it('compares the wait at the advice with the mean and the lowest of the open waits after the serving poll', () => {
    // Served at 0: after it 25, 20, 10, 15, 35 (mean 21); advice at 14 minutes: nearest 15 → 10.
    expect(bestTimeCheck(served(0, { bestTime: { at: at(14), wait: 10 } }), ride)).toEqual({
      atBest: 10,
      restMean: 21,
      regret: 0,
    });
    // Advised at 30 minutes (35) while 10 came after the serving poll: 25 minutes of regret.
    expect(bestTimeCheck(served(5, { bestTime: { at: at(30), wait: 10 } }), ride)).toEqual({
      atBest: 35,
      restMean: 20,
      regret: 25,
    });
  });

  it('sums the checks of a day', () => {
    const day: DayRecord = {
      version: 1,
      date: '2026-07-04',
      times: ride.times,
      rides: { '1': { name: 'A', waits: ride.waits } },
    };
    const { bestTime } = gradeDay(
      new Map([
        [
          '1',
          [
            served(0, { bestTime: { at: at(14), wait: 10 } }),
            served(5, { bestTime: { at: at(30), wait: 10 } }),
            served(10),
          ],
        ],
      ]),
      day,
    );
    expect(bestTime).toEqual({ n: 2, atBest: 45, restMean: 41, regret: 25 });
  });
});
