import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIfNeeded } from './build-if-needed.mts';

/** `npm start`: build when sources changed, then serve everything on one port. */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
buildIfNeeded(root);
await import('../server/main.mts');
