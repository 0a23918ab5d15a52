import { afterEach, describe, expect, it, vi } from 'vitest';
import { finishLater } from '../../../src/platform/http.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('housekeeping after the answer', () => {
  it('with `later`, hands the work over and does not wait for it', async () => {
    const steps: string[] = [];
    const handed: Promise<unknown>[] = [];
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await finishLater(
      'tidy up',
      async () => {
        await held;
        steps.push('housekeeping');
      },
      (task) => handed.push(task),
    );
    steps.push('answer');
    expect(handed).toHaveLength(1);
    release();
    await Promise.all(handed);
    expect(steps).toEqual(['answer', 'housekeeping']);
  });

  it('without `later`, runs the work and waits for it', async () => {
    const steps: string[] = [];
    await finishLater(
      'tidy up',
      async () => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        steps.push('housekeeping');
      },
      undefined,
    );
    steps.push('answer');
    expect(steps).toEqual(['housekeeping', 'answer']);
  });

  it.each([
    ['with `later`', true],
    ['without `later`', false],
  ])('%s, logs a failure as "Could not …" and fails nothing', async (_case, withLater) => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const handed: Promise<unknown>[] = [];
    const later = withLater ? (task: Promise<unknown>) => handed.push(task) : undefined;
    await expect(finishLater('tidy up', () => Promise.reject(new Error('disk full')), later)).resolves.toBeUndefined();
    await expect(Promise.all(handed)).resolves.toBeDefined();
    expect(warn).toHaveBeenCalledWith('Could not tidy up: disk full');
  });
});
