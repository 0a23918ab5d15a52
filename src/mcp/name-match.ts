// Forgiving name lookup for agents, who type names from memory: case, accents, punctuation and spacing
// never matter, a unique part of a name (or the name with more words) or a close spelling finds it.

/** Lower case, accents and punctuation gone, words single-spaced: "Pirates-of  the Caribbéan" → "pirates of the caribbean". */
export function normalizeName(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

const compact = (text: string) => normalizeName(text).replace(/ /g, '');

/** Levenshtein distance, two rows at a time. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** Edits allowed for a close spelling: none for very short names, then about one per four letters. */
const allowedEdits = (length: number) => (length < 4 ? 0 : Math.min(3, Math.ceil(length / 4)));

/**
 * The one candidate a query names, or the five nearest names. `namesOf` gives every name a candidate
 * answers to (a slug and a display name); the first is the one listed on a miss.
 */
export function matchName<T>(query: string, candidates: readonly T[], namesOf: (candidate: T) => readonly string[]) {
  const wanted = compact(query);
  const scored = candidates.map((candidate) => {
    const names = namesOf(candidate).map(compact);
    return {
      candidate,
      exact: names.includes(wanted),
      // A part of a name ("frozen"), or a name inside the query ("Epcot Center").
      part: names.some(
        (name) => (wanted.length >= 4 && name.includes(wanted)) || (name.length >= 4 && wanted.includes(name)),
      ),
      distance: Math.min(...names.map((name) => editDistance(wanted, name))),
    };
  });
  const exact = scored.filter((entry) => entry.exact);
  if (exact.length === 1 && exact[0]) return { found: exact[0].candidate };
  const parts = scored.filter((entry) => entry.part);
  if (parts.length === 1 && parts[0]) return { found: parts[0].candidate };
  const ranked = [...scored].sort((a, b) => a.distance - b.distance);
  const [best, second] = ranked;
  if (best && best.distance <= allowedEdits(wanted.length) && (!second || second.distance > best.distance)) {
    return { found: best.candidate };
  }
  // Names containing the query first (it was ambiguous among them), then by spelling distance.
  const nearest = [...parts, ...ranked.filter((entry) => !entry.part)];
  return { nearest: nearest.slice(0, 5).map((entry) => namesOf(entry.candidate)[0] ?? '') };
}
