import t from 'tap';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { JunitReporter, renderJunit } from '../dist/reporters/junit-reporter.js';
import { cdata, escapeAttribute, serialiseXml } from '../dist/reporters/xml.js';
import { tempDir } from './helpers.js';
import { HOSTILE, hostileReport } from './report-fixture.js';
import { junitValidity, validateJunit, xmllintMissing } from './xml-tools.js';

t.test('the XML tree escapes attributes and text and splits CDATA ends', async (t) => {
  t.equal(escapeAttribute('a"b<c>&d\'e\nf\u0000g'), 'a&quot;b&lt;c&gt;&amp;d&apos;e&#10;fg');
  t.equal(cdata('x]]>y'), '<![CDATA[x]]]]><![CDATA[>y]]>');
  t.equal(cdata('\u0001\u001b\ud800ok\ufffe'), '<![CDATA[ok]]>', 'characters XML 1.0 forbids are removed');
  const xml = serialiseXml({ name: 'a', attributes: { v: '<x>' }, children: [{ name: 'b', children: [{ text: '</b><evil/>' }] }] });
  t.match(xml, '<b>&lt;/b&gt;&lt;evil/&gt;</b>');
  t.notMatch(xml, '<evil/>');
});

t.test('one testsuite per suite, one testcase per check, each outcome as JUnit says', async (t) => {
  const xml = renderJunit(hostileReport());
  t.match(xml, /<testsuites name="petstore-conformance" tests="5" failures="1" errors="1" time="1\.000">/);
  t.match(xml, /<testsuite name="contract" tests="3" failures="1" errors="1" skipped="0" time="0\.0\d\d"/);
  t.match(xml, /<testsuite name="auth" tests="2" failures="0" errors="0" skipped="1"/);
  t.match(xml, /<testcase name="contract\.fails" classname="contract\.listPets" time="0\.013">\s*<failure message="status: &lt;script&gt;alert\(&quot;x&quot;\)&lt;\/script&gt; \]\]&gt;[^"]*" type="expect.status"><!\[CDATA\[/);
  t.match(xml, /<testcase name="contract\.errors"[^>]*>\s*<error message="step 1: connect ECONNREFUSED \(ECONNREFUSED\)" type="ECONNREFUSED">/);
  t.match(xml, /<testcase name="auth\.skipped"[^>]*>\s*<skipped message="applies only before 2030-12-05"\/>/);
  t.match(xml, /<testcase name="contract\.warns"[^>]*>\s*<system-out><!\[CDATA\[WARNING step 1, expect.headers: Cache-Control missing/, 'a warning is visible without failing the case');
  t.notMatch(xml, /<testcase name="contract\.warns"[^>]*>\s*<(failure|error)/);
  t.match(xml, /<testcase name="auth\.passes" classname="auth\.listPets" time="0\.013"\/>/);
  t.match(xml, 'Reproduce with:\ncurl -sS -i -X GET', 'the failure carries its curl');
  t.notMatch(xml, /\d[eE][+-]?\d+"/, 'times in plain decimal');
});

t.test('hostile server output stays inside its text and the file is schema-valid', async (t) => {
  const dir = await tempDir();
  const reporter = new JunitReporter(dir);
  await reporter.onRunEnd(hostileReport());
  const file = path.join(dir, 'junit.xml');
  t.same(reporter.files, [file]);
  const xml = await readFile(file, 'utf8');
  const markup = xml.replace(/<!\[CDATA\[[\s\S]*?\]\]>/g, '');
  t.notMatch(markup, /<script/i, 'outside CDATA sections, no markup from the server becomes an element');
  // eslint-disable-next-line no-control-regex
  t.notMatch(xml, /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/, 'no character XML 1.0 forbids');
  t.ok(HOSTILE.includes(']]>') && xml.includes(']]]]><![CDATA[>'), 'CDATA ends are split');
  t.equal(...junitValidity(file));
});

t.test('xmllint really rejects what the schema forbids', { skip: xmllintMissing() ?? false }, async (t) => {
  const file = path.join(await tempDir(), 'bad.xml');
  await writeFile(file, '<?xml version="1.0"?>\n<testsuites><testsuite name="a" tests="1" failures="0" errors="0" time="1e-3"><testcase/></testsuite></testsuites>\n');
  t.not(validateJunit(file).code, 0);
});
