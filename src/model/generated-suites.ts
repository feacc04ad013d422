/**
 * The suites whose cases are generated rather than declared: --phase names them, and `examples` every other suite (as
 * Schemathesis names its phases).
 */
export const GENERATED_SUITES = ['coverage', 'fuzz', 'request-space', 'stateful'] as const;
