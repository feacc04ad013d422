import t from 'tap';
import { PassThrough } from 'node:stream';
import { RunError } from '../dist/model/errors.js';
import { createReporters, parseReporterNames, REPORTER_NAMES } from '../dist/reporters/reporter-registry.js';

t.test('names come comma-separated or repeated; the default is every reporter', async (t) => {
  t.same(parseReporterNames(undefined), [...REPORTER_NAMES]);
  t.same(parseReporterNames(['junit,console', ' HTML ']), ['console', 'junit', 'html']);
  t.same(parseReporterNames(['json', 'json']), ['json']);
});

t.test('an unknown or missing name is a usage error naming the choices', async (t) => {
  t.throws(() => parseReporterNames(['console,xml']), new RunError('ERR_USAGE', "unknown reporter 'xml'; the reporters are: console, json, junit, html, markdown"));
  t.throws(() => parseReporterNames([',']), { code: 'ERR_USAGE', message: /needs at least one/ });
});

t.test('each name makes its reporter', async (t) => {
  const reporters = createReporters(['console', 'json', 'junit', 'html', 'markdown'], '/tmp/x', { stream: new PassThrough(), color: false, quiet: false });
  t.same(reporters.map((r) => r.name), ['console', 'json', 'junit', 'html', 'markdown']);
});
