/** xmllint for tests: validation against the JUnit XSD, skipped locally (failed in CI) when it is missing. */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { root } from './helpers.js';

/** The JUnit XSD kept in the repository. */
export const JUNIT_XSD = path.join(root, 'test/fixtures/junit.xsd');

/** True when xmllint can run. */
export function hasXmllint(): boolean {
  return spawnSync('xmllint', ['--version']).error === undefined;
}

/** Why the XML tests cannot run, or undefined when they can; in CI a missing xmllint is a failure, not a skip. */
export function xmllintMissing(): string | undefined {
  if (hasXmllint()) return undefined;
  if (process.env['CI'] !== undefined) throw new Error('xmllint is missing: .ci/run should have installed libxml2-utils');
  return 'xmllint is not installed (apt-get install libxml2-utils, as .ci/run does)';
}

/** Validates an XML file against the JUnit XSD; returns xmllint's exit code and messages. */
export function validateJunit(file: string): { code: number | null; output: string } {
  const result = spawnSync('xmllint', ['--noout', '--schema', JUNIT_XSD, file], { encoding: 'utf8' });
  return { code: result.status, output: `${result.stdout}${result.stderr}` };
}

/** The arguments of an assertion that a file is valid JUnit: xmllint's exit code, expected 0, skipped where xmllint is missing. */
export function junitValidity(file: string): [number | null, number, string, { skip: string } | Record<string, never>] {
  const missing = xmllintMissing();
  if (missing !== undefined) return [0, 0, 'junit.xml against the JUnit XSD', { skip: missing }];
  const result = validateJunit(file);
  return [result.code, 0, `junit.xml against the JUnit XSD ${result.output}`.trim(), {}];
}
