/** The run's settings made of the option table: each row that names a setting fills it with its settled value, as it is. */
import t from 'tap';
import { optionEntries } from '../../../src/cli/options.js';
import { runSettings, tableSettings } from '../../../src/cli/run-settings.js';
import { settle } from '../../../src/cli/settings.js';
import { DEFAULT_PACING } from '../../../src/http/pacer.js';

t.test('each row that names a setting fills it with its settled value; no two rows fill one field', async (t) => {
  const { values } = settle('run', { timeout: 20_000, concurrency: 2, 'min-judged': 80 }, {});
  const settings = tableSettings(values);
  const named = optionEntries().flatMap(([name, spec]) => (spec.setting === undefined ? [] : [[name, spec.setting] as const]));
  t.ok(named.length >= 9, `${named.length} rows fill a setting`);
  t.equal(new Set(named.map(([, setting]) => setting)).size, named.length, 'one row per field');
  for (const [name, setting] of named) t.same(settings[setting as keyof typeof settings], values[name], `--${name} fills ${setting}`);
  t.equal(settings.requestTimeoutMs, 20_000, 'a flag wins');
  t.equal(settings.minJudged, 80);
  t.notOk('minJudged' in tableSettings(settle('run', {}, {}).values), 'an option without a value (and no default) fills nothing');
});

t.test('runSettings: the table, then what the plan decided', async (t) => {
  const now = new Date(0);
  const settings = runSettings(settle('run', {}, {}).values, { now, readOnly: true, pacing: DEFAULT_PACING, seed: 7 });
  t.same(
    { now: settings.now, readOnly: settings.readOnly, seed: settings.seed, concurrency: settings.concurrency },
    { now, readOnly: true, seed: 7, concurrency: 4 },
  );
});
