/** The words that ask for the version alone, read before anything else of the CLI is loaded. */

/** Whether `argv` asks for the version and nothing else (`--version`, `-V` or `version`). */
export function asksVersion(argv: readonly string[]): boolean {
  return argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V' || argv[0] === 'version');
}
