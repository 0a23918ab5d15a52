import { describe, expect, it } from 'vitest';
import { BlobsTurns, meets } from '../../../server/blobs-turns.mts';

// The local Blobs gate's turns (server/blobs.mts): what waits for what. Each case starts a first
// operation that holds until released, then a second, and looks at whether the second has begun.

type Operation = { change: string } | { list: string };

async function secondRunsBeside(first: Operation, second: Operation): Promise<boolean> {
  const turns = new BlobsTurns();
  const held = Promise.withResolvers<void>();
  const start = (operation: Operation, work: () => Promise<void>) =>
    'change' in operation ? turns.change(operation.change, work) : turns.list(operation.list, work);
  const firstDone = start(first, () => held.promise);
  let began = false;
  const secondDone = start(second, async () => {
    began = true;
  });
  await new Promise((resolve) => setTimeout(resolve, 10));
  const beside = began;
  held.resolve();
  await Promise.all([firstDone, secondDone]);
  expect(began).toBe(true); // and it runs once the first is done
  return beside;
}

describe('the local Blobs gate’s turns', () => {
  it.each([
    // A key's changes one at a time; other keys beside them.
    [{ change: '/s/location/pin/a' }, { change: '/s/location/pin/a' }, false],
    [{ change: '/s/location/pin/a' }, { change: '/s/location/pin/b' }, true],
    [{ change: '/s/location/pin/a' }, { change: '/s/rate-limits/pin/a' }, true],
    // A list waits for a change in the folder it reads, and a change for such a list.
    [{ change: '/s/location/pin/a' }, { list: '/s/location/pin/' }, false],
    [{ list: '/s/location/pin/' }, { change: '/s/location/pin/a' }, false],
    [{ list: '/s/location/' }, { change: '/s/location/pin/deep/a' }, false],
    [{ change: '/s/location/pin/b' }, { list: '/s/location/pin/a' }, false],
    // Lists beside lists, and beside changes in folders they do not read.
    [{ change: '/s/location/top' }, { list: '/s/location/pin/' }, true],
    [{ list: '/s/rate/x/client/' }, { change: '/s/rate/x/other' }, true],
    [{ list: '/s/location/pin/' }, { list: '/s/location/pin/' }, true],
    [{ list: '/s/rate/x/client/' }, { change: '/s/rate/x/other/slot-0' }, true],
    [{ change: '/s/location/pin/a' }, { list: '/s/location/fixes/' }, true],
    [{ change: '/s/contact/outbox/1' }, { list: '/s/location/' }, true],
  ] as const)('%o then %o: the second runs beside the first: %s', async (first, second, beside) => {
    expect(await secondRunsBeside(first, second)).toBe(beside);
  });

  it('lets a change that began after a list wait for it, while the list waits only for what came before', async () => {
    const turns = new BlobsTurns();
    const order: string[] = [];
    const held = Promise.withResolvers<void>();
    const first = turns.change('/s/a/k1', () => held.promise.then(() => void order.push('change 1')));
    const list = turns.list('/s/a/', async () => void order.push('list'));
    const second = turns.change('/s/a/k2', async () => void order.push('change 2'));
    held.resolve();
    await Promise.all([first, list, second]);
    expect(order).toEqual(['change 1', 'list', 'change 2']);
  });

  it('goes on after a failed change: the next one in line still runs', async () => {
    const turns = new BlobsTurns();
    await expect(turns.change('/s/a/k', () => Promise.reject(new Error('disk full')))).rejects.toThrow('disk full');
    expect(await turns.change('/s/a/k', async () => 'written')).toBe('written');
  });

  it.each([
    ['/s/a/b/c', '/s/a/b/', true],
    ['/s/a/b/c', '/s/a/', true],
    ['/s/a/bc', '/s/a/b', true],
    ['/s/a/bc', '/s/a/b/', false],
    ['/s/a/b/c/d', '/s/a/b/x', true],
    ['/s/a/b', '/s/a/b/c/', false],
    ['/s/x/b/c', '/s/a/', false],
  ])('a change of %s meets a list of %s: %s', (key, prefix, expected) => {
    expect(meets(key, prefix)).toBe(expected);
  });
});
