/** What a check function returns: a verdict on one exchange, with every problem it saw. */

/** The raw verdict of one check function, before the level (fail or warn) is applied. */
export interface Finding {
  ok: boolean;
  message: string;
  details?: string[];
}

/** A passing finding. */
export function pass(message: string): Finding {
  return { ok: true, message };
}

/** A failing finding with optional details (each schema error, each bad item). */
export function fail(message: string, details?: string[]): Finding {
  return details && details.length > 0 ? { ok: false, message, details } : { ok: false, message };
}
