/**
 * Examples for the OpenAPI document, produced by running the real code, so an example can never
 * show something the API would not answer (the wait-times answer: src/wait-times/example.ts).
 */
import { HttpError } from './errors.ts';

/** The error that `task` throws, for examples of error responses taken from the code that answers them. */
export function thrownBy(task: () => unknown): HttpError {
  try {
    task();
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
  throw new Error('expected the example task to throw an HttpError');
}
