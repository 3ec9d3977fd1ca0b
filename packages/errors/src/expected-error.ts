/**
 * The base of CadenceError and HttpError: errors that are expected outcomes (a refused address, a
 * bad signature, a cancelled job) and whose stack nobody reads. Capturing one was the costliest
 * step of a job refused at once and of a refused request, so none is captured unless `keepStack`.
 */
export abstract class ExpectedError extends Error {
  protected constructor(message: string, options: ErrorOptions | undefined, keepStack: boolean) {
    const limit = Error.stackTraceLimit;
    if (!keepStack) Error.stackTraceLimit = 0;
    try {
      super(message, options);
    } finally {
      Error.stackTraceLimit = limit;
    }
  }
}
