import type { Accuracy, AccuracyRow } from '../wait-times/accuracy/accuracy-schemas.ts';

// The park's scorecard in a line, from GET /api/accuracy?park=<slug> (docs/accuracy.md): the
// 28-day window's 30-minute row ("Forecasts here, last 28 days: 12 % closer than no change at 30
// minutes, 4,210 graded"). Shared by the widget and the parks index; no DOM here.

/** The window shown: the last 28 graded days. */
export const WINDOW = 28;

/** A park's rows of the 28-day window (30, 60, 120 minutes), or null when the body has none. */
export function rowsOf(body: Accuracy | null, slug: string): AccuracyRow[] | null {
  const window = body?.windows.find((entry) => entry.days === WINDOW);
  return window?.parks.find((park) => park.park === slug)?.horizons ?? null;
}

const count = (n: number) => n.toLocaleString('en-US');
const percent = (skill: number) => Math.round(Math.abs(skill) * 100);

/** "12 % closer than", "8 % further from the actual wait than" or "as close as", no change. */
export function skillWords(skill: number): string {
  const pct = percent(skill);
  if (pct === 0) return 'as close as no change';
  return skill > 0 ? `${pct} % closer than no change` : `${pct} % further from the actual wait than no change`;
}

/** The line for the 30-minute row; too few graded (or no skill) says so, never a number from noise. */
export function accuracyText(row: AccuracyRow | undefined): string {
  if (!row || row.skill === null) return `Forecasts here: too few graded yet (${count(row?.n ?? 0)})`;
  return `Forecasts here, last ${WINDOW} days: ${skillWords(row.skill)} at ${row.minutes} minutes, ${count(row.n)} graded`;
}

/** One row read out: "30 min: 12 % closer (95 % interval 5 % to 18 %)" or "120 min: too few graded (12)". */
export function rowSpoken(row: AccuracyRow): string {
  if (row.skill === null) return `${row.minutes} min: too few graded (${count(row.n)})`;
  const signed = (skill: number) => `${skill < 0 ? '−' : ''}${percent(skill)} %`;
  const interval =
    row.skillLow !== null && row.skillHigh !== null
      ? ` (95 % interval ${signed(row.skillLow)} to ${signed(row.skillHigh)})`
      : '';
  return `${row.minutes} min: ${signed(row.skill)}${interval}`;
}

// Saved and received bodies are checked as far as they are read (no zod in the browser).
const isRow = (row: unknown) => {
  const r = row as Record<string, unknown>;
  return !!r && Number.isFinite(r.minutes) && Number.isFinite(r.n) && (r.skill === null || Number.isFinite(r.skill));
};

export const isAccuracy = (body: unknown): body is Accuracy =>
  Array.isArray((body as Accuracy | null)?.windows) &&
  (body as Accuracy).windows.every(
    (window) =>
      Array.isArray(window?.parks) &&
      window.parks.every((park) => Array.isArray(park?.horizons) && park.horizons.every(isRow)),
  );
