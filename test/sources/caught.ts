// Runs a parser that must reject its input and returns the SourceError, so a test can assert where it points.
import { SourceError } from '../../build/sources/errors.ts';

export async function caught(run: () => unknown): Promise<SourceError> {
  try {
    await run();
  } catch (error) {
    if (error instanceof SourceError) return error;
    throw error;
  }
  throw new Error('expected a SourceError, but the input was accepted');
}
