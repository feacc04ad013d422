/** Errors a user can cause: each ends the run with exit 2 and one line. */

/** Stable codes for everything that stops a run before or outside a verdict. */
export type RunErrorCode =
  | 'ERR_USAGE'
  | 'ERR_CONFIG'
  | 'ERR_SCENARIO_INVALID'
  | 'ERR_SCHEMA_INVALID'
  | 'ERR_UNREACHABLE'
  | 'ERR_TLS'
  | 'ERR_NOT_A_PET_STORE'
  | 'ERR_KEY_REFUSED'
  | 'ERR_WAIT_TIMEOUT'
  | 'ERR_REPORT_WRITE'
  | 'ERR_SERVER_START'
  | 'ERR_RATE_LIMITED'
  | 'ERR_SERVER_GONE'
  | 'ERR_UNREADABLE'
  | 'ERR_INTERRUPTED'
  | 'ERR_LOAD_WORKER';

/** A problem the user can fix; the CLI prints `message` alone (plus `details` lines) and exits 2. */
export class RunError extends Error {
  readonly code: RunErrorCode;
  readonly details: readonly string[];

  constructor(code: RunErrorCode, message: string, details: readonly string[] = []) {
    super(message);
    this.name = 'RunError';
    this.code = code;
    this.details = details;
  }
}
