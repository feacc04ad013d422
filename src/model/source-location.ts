/** Where something was declared: a case, an expectation, a threshold. */
export interface SourceLocation {
  file: string;
  line: number;
  column: number;
}
