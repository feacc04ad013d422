/**
 * The README a newcomer reads in five minutes: at most 1,500 words (as `wc -w` counts them), a "what it does not check",
 * and every count it states made from the one source that decides it (the registry, the cases a run plans).
 */
import t from 'tap';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { REGISTRY } from '../../../src/checks/registry.js';
import { plannedCases } from '../../../src/cli/list-command.js';
import type { GivenValues } from '../../../src/cli/options.js';
import { root } from '../../helpers.js';

const readme = await readFile(path.join(root, 'README.md'), 'utf8');

t.test('at most 1,500 words, as wc -w counts them', async (t) => {
  const words = readme.split(/\s+/).filter((word) => word !== '').length;
  t.ok(words <= 1_500, `README.md has ${words} words`);
});

t.test('it says what it does not check, and names the commands a newcomer needs', async (t) => {
  t.match(readme, /^## What it does not check$/m);
  for (const command of ['npm ci && npm start', 'npm test', 'petstore-conformance list', 'petstore-conformance explain'])
    t.ok(readme.includes(command), command);
});

t.test('every count is the count of what decides it', async (t) => {
  const checks = [...REGISTRY.values()];
  const scope = (name: string): number => checks.filter((c) => c.scope === name).length;
  const cases = await plannedCases({} as GivenValues);
  const suites = new Set(cases.map((c) => c.suite)).size;
  const stated: Array<[string, string]> = [
    [`There are ${checks.length} registered checks`, 'the registry'],
    [`${scope('case')} judge what a case declares`, "the registry's case checks"],
    [`${scope('exchange')} judge every response`, "the registry's exchange checks"],
    [`${scope('transport')}\njudges a request that got no response`, "the registry's transport checks"],
    [`${scope('run')} judge a load profile`, "the registry's run checks"],
    [`A full run runs ${cases.length} cases in ${suites}\nsuites`, 'the cases a run plans (petstore-conformance list)'],
  ];
  for (const [text, source] of stated) t.ok(readme.includes(text), `"${text.replace('\n', ' ')}" is ${source}'s count`);
  // The suites' table lists exactly the suites a full run has.
  const rows = [...readme.matchAll(/^\| `([\w-]+)` \|/gm)].map((m) => m[1]);
  t.same([...rows].sort(), [...new Set(cases.map((c) => c.suite))].sort(), 'the table names every suite of a run');
  // No other number of checks or cases: a count stated twice drifts apart.
  const counts = [...readme.matchAll(/\b(\d+) (?:registered )?(?:checks|cases)\b/g)].map((m) => Number(m[1]));
  t.same(counts, [checks.length, cases.length], 'one count of checks and one of cases');
});
