/**
 * When the local Blobs gate (blobs.mts) lets a change or a list reach the store. A change (write or
 * delete) of a key waits for the key's earlier changes and for the lists under way that read its
 * folder; a list waits for the changes under way in the folder it reads (the prefix's, and those
 * under it), so it meets no write's temporary file and reads each key's ETag in the key's turn.
 * Anything else runs side by side: other keys, other folders, lists beside lists. A newcomer waits
 * only for what is already under way, so neither side can starve.
 */
export class BlobsTurns {
  /** Each busy key's last change in line; the entry goes when the key is idle. */
  readonly #changes = new Map<string, Promise<void>>();
  /** The lists under way, by prefix. */
  readonly #lists = new Set<{ prefix: string; done: Promise<void> }>();

  /** Runs a write or delete of `key` in its turn. */
  change<T>(key: string, work: () => Promise<T>): Promise<T> {
    const lists = [...this.#lists].filter(({ prefix }) => meets(key, prefix)).map(({ done }) => done);
    const run = Promise.all([this.#changes.get(key), ...lists]).then(work);
    const done = run.then(noop, noop);
    this.#changes.set(key, done);
    void done.then(() => this.#changes.get(key) === done && this.#changes.delete(key));
    return run;
  }

  /** Runs a list of the keys beginning with `prefix` in its turn. */
  list<T>(prefix: string, work: () => Promise<T>): Promise<T> {
    const before = [...this.#changes].filter(([key]) => meets(key, prefix)).map(([, done]) => done);
    const run = Promise.all(before).then(work);
    const entry = { prefix, done: run.then(noop, noop) };
    this.#lists.add(entry);
    void entry.done.then(() => this.#lists.delete(entry));
    return run;
  }
}

/** Whether a list of `prefix` reads the folder of `key` (`a/b/c` is in the folder of `a/b/x`). */
export const meets = (key: string, prefix: string) => key.startsWith(prefix.slice(0, prefix.lastIndexOf('/') + 1));

const noop = () => {};
