import { type DayRecord, DayRecordSchema } from '../../src/wait-times/day/history-schemas.ts';
import { addSamples, emptyDay } from '../../src/wait-times/day/park-day.ts';
import { fromWallClock, localDateOf } from '../../src/wait-times/local-time.ts';
import type { HistorySample } from '../../src/wait-times/park-snapshot-schemas.ts';
import { cellsOf } from './posted-waits.ts';
import type { Observation, ParkSeries, RideSeries } from './replay.ts';

/**
 * A queue-times sample log as production keeps it: the park's day records (`day/<slug>/<YYYY-MM-DD>`,
 * `DayRecordSchema`: the sample times and each ride's name and waits in step, null while closed),
 * one JSON record per line (`.jsonl`); `toDayLog` writes one from a CSV of queue-times waits.
 */

/** Reads a day log, checking every record against the production schema. */
export function parseDayLog(text: string): DayRecord[] {
  return text
    .split(/\r?\n/)
    .map((line, index) => ({ line, number: index + 1 }))
    .filter(({ line }) => line.trim() !== '')
    .map(({ line, number }) => {
      const parsed = DayRecordSchema.safeParse(parseJson(line));
      if (parsed.success) return parsed.data;
      const [issue] = parsed.error.issues;
      throw new Error(
        `line ${number} is not a day record: ${issue?.path.join('.') || 'the record'}: ${issue?.message}`,
      );
    });
}

function parseJson(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

/** The park in a day log: its samples in time order and each ride's observations. */
export function parkOfDayLog(days: readonly DayRecord[]): ParkSeries {
  const byTime = new Map<number, HistorySample>();
  const rides = new Map<string, RideSeries & { observations: Observation[] }>();
  for (const day of days) {
    day.times.forEach((at, index) => {
      const waits: Record<string, number | null> = {};
      for (const [id, ride] of Object.entries(day.rides)) {
        const wait = ride.waits[index] ?? null;
        waits[id] = wait;
        const series = rides.get(id) ?? { id, name: ride.name, observations: [] };
        series.observations.push({ at, wait });
        rides.set(id, series);
      }
      byTime.set(at, { at, waits });
    });
  }
  for (const series of rides.values()) series.observations.sort((a, b) => a.at - b.at);
  return { rides: [...rides.values()], samples: [...byTime.values()].sort((a, b) => a.at - b.at) };
}

const TIMESTAMP = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)(Z|[+-]\d{2}:?\d{2})?$/;

/**
 * The day log of a CSV of queue-times waits, one row per ride and fetch, columns found by name:
 * `timestamp` (ISO with an offset, or the park's wall clock), `ride_id`, `ride_name`, `is_open`,
 * `wait_time`. A timestamp's rows are one sample, taken and added to its day as the service does.
 */
export function toDayLog(csv: string, timeZone: string): string {
  const [header = [], ...rows] = csv
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '')
    .map(cellsOf);
  const column = (name: string) => {
    const index = header.indexOf(name);
    if (index < 0) throw new Error(`expected a "${name}" column, got: ${header.join(',')}`);
    return index;
  };
  const [time, id, name, open, wait] = ['timestamp', 'ride_id', 'ride_name', 'is_open', 'wait_time'].map(column);
  const samples = new Map<number, HistorySample>();
  const names: Record<string, string> = {};
  for (const cells of rows) {
    const cell = (index = -1) => cells[index] ?? '';
    const at = unixOf(cell(time), timeZone);
    const minutes = Number(cell(wait));
    if (at === undefined || !Number.isFinite(minutes) || minutes < 0) throw new Error(`unreadable row: ${cells}`);
    const sample = samples.get(at) ?? { at, waits: {} };
    sample.waits[cell(id)] = /^true$/i.test(cell(open)) ? Math.round(minutes) : null;
    names[cell(id)] = cell(name).trim();
    samples.set(at, sample);
  }
  const days = new Map<string, DayRecord>();
  for (const sample of [...samples.values()].sort((a, b) => a.at - b.at)) {
    const date = localDateOf(sample.at, timeZone);
    days.set(date, addSamples(days.get(date) ?? emptyDay(date), [sample], names));
  }
  return [...days.values()].map((day) => `${JSON.stringify(DayRecordSchema.parse(day))}\n`).join('');
}

function unixOf(timestamp: string, timeZone: string): number | undefined {
  const [, date, time, zone] = TIMESTAMP.exec(timestamp.trim()) ?? [];
  if (!date) return undefined;
  const parsed = Date.parse(`${date}T${time}${zone ?? 'Z'}`);
  if (Number.isNaN(parsed)) return undefined;
  return zone ? parsed : fromWallClock(parsed, timeZone);
}
