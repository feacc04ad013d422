/** The reporters: console, JSON, JUnit, HTML, Markdown, load console and charts, their registry and the fan-out that keeps one failure from losing the others. */
import t from 'tap';
import { hostname } from 'node:os';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { loadCaseResult } from '../../../src/engine/phases/load.js';
import { RunError } from '../../../src/model/errors.js';
import type { ServerWait } from '../../../src/model/exchange.js';
import type { CaseResult, RunReport } from '../../../src/model/results.js';
import { ConsoleReporter } from '../../../src/reporters/console-reporter.js';
import { FileReporter } from '../../../src/reporters/file-reporter.js';
import { HtmlReporter, renderHtml } from '../../../src/reporters/html-reporter.js';
import { JsonReporter, renderJson } from '../../../src/reporters/json-reporter.js';
import { JunitReporter, renderJunit } from '../../../src/reporters/junit-reporter.js';
import { formatMs } from '../../../src/model/load.js';
import { LoadConsoleReporter } from '../../../src/reporters/load-console-reporter.js';
import { escapeMarkdown, MarkdownReporter, renderMarkdown } from '../../../src/reporters/markdown-reporter.js';
import { createReporters, DEFAULT_REPORTERS, parseReporterNames, REPORTER_NAMES } from '../../../src/reporters/reporter-registry.js';
import { waitLine } from '../../../src/reporters/report-view.js';
import { type Reporter, ReporterFanOut } from '../../../src/reporters/reporter.js';
import { latencyPercentileChart, loadChartData, niceScale, throughputChart } from '../../../src/reporters/svg-charts.js';
import { cdata, escapeAttribute, serialiseXml } from '../../../src/reporters/xml.js';
import { reportSchemaProblems, root, tempDir } from '../../helpers.js';
import { HOSTILE, hostileReport, SAMPLE_LOAD, withLoad } from '../../report-fixture.js';

import { junitValidity, validateJunit, xmllintMissing } from '../../xml-tools.js';

// console-reporter.test.ts
{
  function capture(isTTY: boolean, color: boolean, quiet: boolean): { reporter: ConsoleReporter; text: () => string } {
    const stream = Object.assign(new PassThrough(), { isTTY });
    let text = '';
    stream.on('data', (d: Buffer) => (text += d.toString()));
    return { reporter: new ConsoleReporter({ stream, color, quiet }), text: () => text };
  }

  /** What the console prints at the end of a run of `report`, without a terminal. */
  async function endOf(report: RunReport, quiet = false): Promise<string> {
    const { reporter, text } = capture(false, false, quiet);
    reporter.onRunEnd(report);
    await new Promise((resolve) => setImmediate(resolve));
    return text();
  }

  async function play(reporter: ConsoleReporter): Promise<void> {
    const report = hostileReport();
    reporter.onRunStart(report.meta, report.cases);
    for (const result of report.cases) reporter.onCaseEnd(result);
    reporter.onRunEnd(report);
    await new Promise((resolve) => setImmediate(resolve));
  }

  t.test(
    'a wait the server asked for: in place of the progress on a terminal, a line of its own in a log from 5 s on, nothing when quiet',
    async (t) => {
      const wait = (waitMs: number) => ({
        at: '2026-11-26T10:00:00.000Z',
        method: 'GET',
        target: '/pets?limit=5',
        status: 503,
        retryAfter: String(waitMs / 1000),
        waitMs,
        addedMs: waitMs,
        spentMs: 15_000,
        budgetMs: 300_000,
      });
      const line = 'waiting 5.0 s as the server asked (503, Retry-After: 5, to GET /pets?limit=5); 15.0 s of the 300.0 s wait budget used';
      const rows: Array<[string, boolean, boolean, number, string]> = [
        ['a log, a wait of 5 s', false, false, 5000, `${line}\n`],
        ['a log, a wait of 4.9 s', false, false, 4900, ''],
        [
          'a terminal, a wait of 1 s: shown in place, no newline',
          true,
          false,
          1000,
          line.replace('5.0 s as', '1.0 s as').replace('Retry-After: 5,', 'Retry-After: 1,'),
        ],
        ['quiet, a wait of 60 s', false, true, 60_000, ''],
      ];
      for (const [name, isTTY, quiet, ms, expected] of rows) {
        const { reporter, text } = capture(isTTY, false, quiet);
        reporter.onWait(wait(ms));
        await new Promise((resolve) => setImmediate(resolve));
        t.equal(text(), expected, name);
      }
      const { reporter, text } = capture(true, false, false);
      const report = hostileReport();
      reporter.onRunStart(report.meta, report.cases);
      reporter.onWait(wait(5000));
      reporter.onCaseEnd(report.cases[0] as CaseResult);
      await new Promise((resolve) => setImmediate(resolve));
      t.match(text(), /wait budget used\r\u001b\[K/, 'the next case clears the wait from the terminal line');
    },
  );

  t.test('a wait longer than the server asked says it is the backoff, and what keeps the run under the limit', async (t) => {
    const base = {
      at: '2026-11-26T10:00:00.000Z',
      method: 'GET',
      target: '/pets',
      status: 429,
      addedMs: 1,
      spentMs: 75_000,
      budgetMs: 300_000,
    };
    const budget = '75.0 s of the 300.0 s wait budget used';
    const limit = "--rate-limit N keeps the run under the server's limit";
    const rows: Array<[string, ServerWait, string]> = [
      [
        'as asked',
        { ...base, retryAfter: '5', waitMs: 5000, askedMs: 5000, inARow: 1 },
        `waiting 5.0 s as the server asked (429, Retry-After: 5, to GET /pets); ${budget}`,
      ],
      [
        'the backoff of a request throttled 9 times',
        { ...base, retryAfter: '5', waitMs: 60_000, askedMs: 5000, inARow: 9 },
        'waiting 60.0 s, longer than the 5.0 s the server asked (429, Retry-After: 5, to GET /pets): ' +
          `throttled 9 times in a row, each wait twice the last; ${limit}; ${budget}`,
      ],
      [
        'no Retry-After',
        { ...base, waitMs: 1000, inARow: 1 },
        `waiting 1.0 s, a backoff: the server named no wait (429, to GET /pets); ${limit}; ${budget}`,
      ],
      [
        'a wait recorded without askedMs reads its Retry-After again',
        { ...base, retryAfter: '5', waitMs: 60_000 },
        `waiting 60.0 s, longer than the 5.0 s the server asked (429, Retry-After: 5, to GET /pets); ${limit}; ${budget}`,
      ],
    ];
    for (const [name, wait, expected] of rows) t.equal(waitLine(wait), expected, name);
  });

  t.test('a warning or an error repeated word for word is shown once, with how many cases share it', async (t) => {
    const report = hostileReport();
    const warned = report.cases.find((c) => c.outcome === 'warned');
    if (warned === undefined) return t.fail('the fixture has a warning');
    const copies = (base: typeof warned, n: number) => Array.from({ length: n }, (_, i) => ({ ...base, id: `${base.id}.${i + 1}` }));
    report.cases.push(...copies(warned, 8));
    const out = await endOf(report);
    t.equal(out.match(/^WARN {2}contract\.warns/gm)?.length, 1, 'nine identical warnings: one block');
    t.match(
      out,
      'the same on 8 more cases: contract.warns.1, contract.warns.2, contract.warns.3, contract.warns.4, contract.warns.5, contract.warns.6 and 2 more',
    );
  });

  t.test('failures are grouped by the check and clause they broke, each message with the cases that gave it', async (t) => {
    const report = hostileReport();
    const failed = report.cases.find((c) => c.outcome === 'failed');
    if (failed === undefined) return t.fail('the fixture has a failure');
    const status = (message: string) => ({ id: 'expect.status', level: 'fail' as const, outcome: 'failed' as const, step: 0, message });
    const same = (id: string, message: string, clause = failed.clause) => ({ ...failed, id, clause, checks: [status(message)] });
    // One fault seen by nine cases on one clause, two of them saying it otherwise; one case on another clause; an exchange
    // check's clause is its own, whatever the case's.
    const nine = [
      ...Array.from({ length: 7 }, (_, i) => same(`bug.${i + 1}`, 'expected status 401, got 200')),
      same('bug.8', 'expected status 401, got 201'),
      same('bug.9', 'expected status 401, got 201'),
    ];
    const other = same('elsewhere', 'expected status 404, got 200', 'Endpoints › getPet rule 3');
    const errorBody = (id: string, clause: string) => ({
      ...failed,
      id,
      clause,
      checks: [{ id: 'errors.error-body', level: 'fail' as const, outcome: 'failed' as const, step: 0, message: 'no Error body' }],
    });
    report.cases = [...nine, other, errorBody('e.1', 'Endpoints › listPets'), errorBody('e.2', 'Endpoints › getPet')];
    const out = await endOf(report);
    t.equal(out.match(/^FAIL /gm)?.length, 3, `three groups: ${out}`);
    t.match(
      out,
      [
        'FAIL  expect.status, 9 cases: Endpoints › listPets',
        '      expected status 401, got 200',
        '        bug.1, bug.2, bug.3, bug.4, bug.5, bug.6, bug.7',
        '      expected status 401, got 201',
        '        bug.8, bug.9',
        '      e.g. bug.1: GET http://127.0.0.1:9/v1/pets?limit=5 → 500',
        "      reproduce: curl -sS -i -X GET 'http://127.0.0.1:9/v1/pets?limit=5'",
      ].join('\n'),
    );
    t.match(
      out,
      /^FAIL {2}elsewhere {2}contract\.fails title\n {6}expect\.status: expected status 404, got 200\n/m,
      'a group of one: the case whole',
    );
    t.match(
      out,
      'FAIL  errors.error-body, 2 cases: Errors: every error body has the shape Error; rule 1, status equals the HTTP status\n      no Error body\n        e.1, e.2\n',
      "an exchange check's own clause groups cases of several clauses",
    );
  });

  t.test('not-judged cases are listed by reason, in a log as on a terminal', async (t) => {
    const report = hostileReport();
    const skipped = report.cases.find((c) => c.outcome === 'not-judged');
    if (skipped === undefined) return t.fail('the fixture has a case not judged');
    report.cases.push({ ...skipped, id: 'auth.second' }, { ...skipped, id: 'auth.unrun', skip: 'interrupted', reason: 'not run' });
    const out = await endOf(report);
    t.match(out, `NOT JUDGED ${skipped.reason ?? ''}\n      2 cases: ${skipped.id}, auth.second\n`);
    t.notMatch(out, 'auth.unrun', "cases a stop left unrun are counted on the verdict's line, not listed");
    t.notMatch(await endOf(report, true), 'NOT JUDGED', 'quiet leaves them out');
  });

  t.test('on a terminal: progress suite by suite, then failures with reasons and a curl', async (t) => {
    const { reporter, text } = capture(true, true, false);
    await play(reporter);
    const out = text();
    t.match(out, /checking 1\/6 · contract 1\/4/, 'a live progress line');
    t.match(
      out,
      /\u001b\[31m✗\u001b\[39m contract\s+\u001b\[2m1 failed, 1 warned, 1 could not test, 1 internal error/,
      'a line when a suite is done',
    );
    t.match(out, /✓\u001b\[39m auth\s+\u001b\[2m1 passed, 1 not judged/);
    t.match(out, /\u001b\[31mFAIL \u001b\[39m/, 'coloured on a colour terminal');
    t.match(out, /reproduce: curl -sS -i -X GET/);
    t.match(out, /verdict: \u001b\[31mFAILED/);
  });

  t.test('without a terminal or with NO_COLOR: no progress, no escape sequences, no control characters; a line per suite', async (t) => {
    const { reporter, text } = capture(false, false, false);
    await play(reporter);
    const out = text();
    t.notMatch(out, /checking \d/);
    t.match(out, /^✗ contract {7}1 failed, 1 warned, 1 could not test, 1 internal error$/m, 'each suite counted when it is done');
    t.match(out, /^✓ auth {11}1 passed, 1 not judged$/m);
    // eslint-disable-next-line no-control-regex
    t.notMatch(out, /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/, 'only newlines');
    t.match(out, /FAIL {2}contract\.fails/);
    t.match(out, /WARN {2}contract\.warns/);
    t.match(out, /COULD NOT TEST contract\.errors/);
    t.match(out, /INTERNAL ERROR contract\.throws/);
    t.match(out, /INTERNAL ERROR expect\.status threw once \(the check threw: /, 'the internal errors, once per check');
    t.match(
      out,
      /WARN {2}auth\.www-authenticate {2}A 401 names the Bearer scheme in WWW-Authenticate\n {6}7 responses \(a run finding: no case's outcome\); e\.g\. contract\.fails step 1: 401 without/,
    );
    t.match(out, /1 passed, 1 failed, 1 warned, 1 not judged, 1 could not test, 1 internal error, 1 finding, 1 check or phase threw/);
  });

  t.test('--quiet: failures and the verdict only, even on a terminal', async (t) => {
    const { reporter, text } = capture(true, false, true);
    await play(reporter);
    const out = text();
    t.notMatch(out, /petstore-conformance 0\.1\.0|checking|WARN/);
    t.match(out, /FAIL {2}contract\.fails/);
    t.match(out, /verdict: FAILED/);
  });
}

// html-reporter.test.ts
{
  t.test('the style is well-formed CSS: every rule a selector and declarations, every declaration a property and a value', async (t) => {
    const html = renderHtml(hostileReport());
    const style = html.slice(html.indexOf('<style>') + 7, html.indexOf('</style>'));
    t.ok(style.length > 1000, 'a style');
    t.equal([...style.matchAll(/\{/g)].length, [...style.matchAll(/\}/g)].length, 'its braces balance');
    const bad: string[] = [];
    // An at-rule's block holds rules: its opening goes, and the brace that closed it leaves an empty rule.
    for (const rule of style.replace(/@media[^{]*\{/g, '').split('}')) {
      if (rule.trim() === '') continue;
      const [selector = '', body = '', ...more] = rule.split('{');
      if (selector.trim() === '' || more.length > 0) bad.push(`rule: ${rule.trim().slice(0, 80)}`);
      for (const declaration of body
        .split(';')
        .map((d) => d.trim())
        .filter((d) => d !== ''))
        if (!/^(--)?[a-z][a-z-]*\s*:\s*\S[^{};]*$/.test(declaration) || (declaration.split('"').length - 1) % 2 !== 0)
          bad.push(declaration);
    }
    t.same(bad, [], 'no declaration that a browser would drop');
    t.match(style, /font: 14px\/1\.45 system-ui, [^;]*"DejaVu Sans", sans-serif;/, 'the body font names whole');
    t.match(style, /font: 12px\/1\.4 ui-monospace, "DejaVu Sans Mono", Menlo, monospace;/, 'the monospace font names whole');
    t.notMatch(style, /" \+ "|\\\n/, 'no piece of the source that wrote it: no concatenation, no line continuation');
  });

  t.test('the verdict, the counts and the countdown come first; failures before warnings before passes', async (t) => {
    const html = renderHtml(hostileReport());
    t.match(html, /<header class="verdict v-failed">[\s\S]*<h1>FAILED<\/h1><span class="what">1 of 6 cases failed<\/span>/);
    t.match(html, /getPet is removed in 1475 days \(2030-12-05, by the suite&#39;s clock\)/);
    const order = [
      'id="internal-errors"',
      'id="failed"',
      'id="internal-error"',
      'id="could-not-test"',
      'id="warned"',
      'id="findings"',
      'id="passed"',
      'id="not-judged"',
    ].map((s) => html.indexOf(s));
    t.ok(
      order.every((at, i) => at > 0 && (i === 0 || at > (order[i - 1] as number))),
      'sections in order of urgency',
    );
    t.match(
      html,
      /<pre class="repro">curl -sS -i -X GET &#39;http:\/\/127\.0\.0\.1:9\/v1\/pets\?limit=5&#39; -H &#39;accept: application\/json&#39; -H &quot;Authorization: Bearer \$PETSTORE_API_KEY&quot;<\/pre>/,
    );
    t.notMatch(html, /id="load"/, 'no load section without load results');
  });

  t.test('the top links each failure group; evidence and the passes are collapsed; JSON bodies are laid out', async (t) => {
    const report = withLoad();
    const failed = report.cases.find((c) => c.id === 'contract.fails') as CaseResult;
    const exchange = failed.exchanges[0] as CaseResult['exchanges'][number];
    const json = { ...exchange, response: { status: 400, headers: {}, body: '{"id":9007199254740993}', bytes: 23, truncated: false } };
    report.cases.push({ ...failed, id: 'contract.fails.again', exchanges: [json] });
    const html = renderHtml(report);
    const nav = html.slice(html.indexOf('<nav class="summary"'), html.indexOf('</nav>'));
    t.match(nav, /<li><a href="#cause-1"><code>expect\.status<\/code>: Endpoints › listPets<\/a> <span class="n">2 cases<\/span><\/li>/);
    t.match(
      nav,
      /<li><a href="#cause-2"><code>load\.p99<\/code>: the load profile&#39;s threshold on p99<\/a> <span class="n">1 case<\/span><\/li>/,
    );
    t.match(nav, 'href="#warned"', 'the warnings linked from the top');
    t.match(nav, 'href="#load"', 'the load section linked from the top');
    t.match(html, /<section class="cause" id="cause-1">[\s\S]*<article class="c-failed" id="result-contract\.fails"><details open>/);
    t.match(html, /<article class="c-failed" id="result-contract\.fails\.again"><details>/, 'the second case of a group shows one line');
    t.notMatch(html, /<details class="evidence" open/, 'evidence is collapsed');
    t.match(html, /<section id="passed"><h2>Passed \(1\)<\/h2><details><summary>/, 'the passes are collapsed');
    t.match(html, '<pre>HTTP 400\n\n{\n  &quot;id&quot;: 9007199254740993\n}</pre>', 'a JSON body laid out, its digits as sent');
  });

  t.test('every server-supplied string is escaped; the page needs nothing from outside', async (t) => {
    const html = renderHtml(hostileReport());
    t.equal((html.match(/<script/gi) ?? []).length, 0, 'no script element');
    t.match(html, '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    t.notMatch(html, /<\/pre><!--/, 'a server cannot close our elements');
    // eslint-disable-next-line no-control-regex
    t.notMatch(html, /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/, 'no control characters');
    t.notMatch(html, /(src|href)=["']?(https?:)?\/\//i, 'no external asset');
    t.match(
      html,
      `content="default-src 'none'; style-src 'unsafe-inline'; img-src data:"`,
      'a CSP forbids any request even if escaping failed',
    );
  });

  t.test('load results become a table of figures and verdicts above a percentile chart and a throughput chart', async (t) => {
    const html = renderHtml(withLoad());
    t.match(
      html,
      /<section id="load"><h2>Load<\/h2><div class="table"><table class="figures">[\s\S]*<table class="thresholds">[\s\S]*<div class="charts"><figure><figcaption>Latency by percentile \(ms\): the bars from the scheduled send, coordinated omission corrected<\/figcaption><svg[^>]*aria-label="Latency by percentile"/,
    );
    t.match(html, '<th scope="row">requests</th><td>27012 = 27000 responses + 2 errors + 10 in flight at the stop</td>');
    t.match(html, '<th scope="row">rate achieved</th><td>900.4 requests/s sent (target 900/s, +0.0 %), 900 responses/s</td>');
    t.match(
      html,
      '<th scope="row">latency from the scheduled send, coordinated omission corrected</th><td>p50 12.4 ms · p90 27.5 ms · p99 61.8 ms · max 118.2 ms</td>',
    );
    t.match(html, /<tr class="failed"><td><code>load\.<wbr>p99<\/code><\/td><td>FAIL<\/td><td>900 ms \(at most 800 allowed\)<\/td><\/tr>/);
    t.match(html, /ECONNRESET: read ECONNRESET/);
    t.match(html, '<th scope="row">errors</th><td>2 (timeouts 1, resets 1)</td>');
    t.match(
      html,
      '<th scope="row">resets</th><td>1 requests lost on a busy connection the server reset or closed before their complete response (never sent again)</td>',
    );
    t.match(
      html,
      '<th scope="row">connection retries</th><td>3 requests sent again on a fresh connection after the server closed an idle one (not errors)</td>',
    );
    t.match(
      html,
      /<figcaption>Throughput over time \(responses per second\)<\/figcaption><svg[^>]*aria-label="Throughput over time"[\s\S]*<polyline points="[\d., ]+"/,
    );
    t.match(html, /class="axis-label"[^>]*>percentile of responses</, 'each axis labelled');
    t.match(html, /class="axis-label"[^>]*>seconds from the start</);
    t.match(
      html,
      '<a class="c-load" href="#load"><b>FAIL</b>load: 1 of 2 checks failed</a>',
      'the load linked from the top with its verdict',
    );
    t.match(html, />p99\.9</);
    t.ok(html.indexOf('id="load"') < html.indexOf('id="passed"'), 'load before the list of passes');
    const unknownShape = renderHtml({ ...hostileReport(), load: { requests: 5 } } as unknown as RunReport);
    t.notMatch(unknownShape, /class="figures"/, 'figures only from a load section of the known shape');
    t.match(unknownShape, /report\.json holds them/, 'load results in another shape are pointed to, not drawn');
  });

  t.test('the reporter writes report.html', async (t) => {
    const dir = await tempDir();
    const reporter = new HtmlReporter(dir);
    await reporter.onRunEnd(hostileReport());
    t.same(reporter.files, [path.join(dir, 'report.html')]);
    t.match(await readFile(path.join(dir, 'report.html'), 'utf8'), /^<!doctype html>/);
  });
}

// json-reporter.test.ts
{
  t.test('report.json is the report, exactly, and matches its schema', async (t) => {
    const dir = await tempDir();
    await new JsonReporter(dir).onRunEnd(hostileReport());
    const text = await readFile(path.join(dir, 'report.json'), 'utf8');
    const report = JSON.parse(text) as RunReport;
    // Steps counted from 1 in the file, from 0 in the run: the one difference.
    const back = <T extends { step: number }>(item: T): T => ({ ...item, step: item.step - 1 });
    const asRun = {
      ...report,
      cases: report.cases.map((c) => ({ ...c, checks: c.checks.map(back), exchanges: c.exchanges.map(back) })),
      warnings: report.warnings.map(back),
      findings: report.findings.map((f) => ({ ...f, examples: f.examples.map(back) })),
    };
    t.same(asRun, JSON.parse(JSON.stringify(hostileReport())));
    t.same(await reportSchemaProblems(report), []);
    const bytes = await readFile(path.join(dir, 'report.json'));
    t.doesNotThrow(() => new TextDecoder('utf-8', { fatal: true }).decode(bytes), 'valid UTF-8 even with lone surrogates in the input');
  });

  t.test('latency reads in ms with µs digits under 10 ms, fewer above', async (t) => {
    const rows: Array<[number, string]> = [
      [0.213, '0.213 ms'],
      [0.1, '0.1 ms'],
      [0.001, '0.001 ms'],
      [9.9994, '9.999 ms'],
      [12.344, '12.34 ms'],
      [61.8, '61.8 ms'],
      [123.46, '123.5 ms'],
      [1005.392, '1005 ms'],
      [0, '0 ms'],
    ];
    for (const [ms, text] of rows) t.equal(formatMs(ms), text, String(ms));
  });

  t.test('JUnit and Markdown carry the load figures and every threshold measured against its bound, passed ones too', async (t) => {
    const xml = renderJunit(withLoad());
    const out = /<testcase name="load\.nightly"[\s\S]*?<system-out><!\[CDATA\[([\s\S]*?)\]\]><\/system-out>/.exec(xml)?.[1] ?? '';
    t.match(out, /^load nightly: Nightly constant-rate load\n/);
    t.match(out, '  requests: 27012 = 27000 responses + 2 errors + 10 in flight at the stop');
    t.match(out, 'FAIL load.p99: 900 ms (at most 800 allowed)');
    t.match(out, 'PASS load.errors: 0 failed requests (at most 0 allowed)');
    t.match(out, '  errors: 2 (timeouts 1, resets 1)\n');
    t.match(out, '  resets: 1 requests lost on a busy connection');
    t.match(out, '  connection retries: 3 requests sent again on a fresh connection after the server closed an idle one (not errors)');
    const md = renderMarkdown(withLoad());
    t.match(md, '| errors | 2 (timeouts 1, resets 1) |');
    t.match(md, '| resets | 1 requests lost on a busy connection');
    t.match(md, '| connection retries | 3 requests sent again on a fresh connection after the server closed an idle one (not errors) |');
    t.match(md, '### load nightly: Nightly constant-rate load');
    t.match(
      md,
      '| latency from the scheduled send, coordinated omission corrected | p50 12.4 ms · p90 27.5 ms · p99 61.8 ms · max 118.2 ms |',
    );
    t.match(md, '| `load.p99` | FAIL | 900 ms (at most 800 allowed) |');
    t.notMatch(renderMarkdown(hostileReport()), /### load/, 'no load section without a load');
  });

  t.test('the schema accepts a load section and rejects what the format does not have', async (t) => {
    const asWritten = (value: RunReport): RunReport => JSON.parse(renderJson(value)) as RunReport;
    t.same(await reportSchemaProblems(asWritten({ ...hostileReport(), load: SAMPLE_LOAD })), []);
    const report = asWritten(hostileReport());
    t.not((await reportSchemaProblems({ ...report, verdict: 'maybe' })).length, 0, 'an unknown verdict');
    t.not((await reportSchemaProblems({ ...report, extra: 1 })).length, 0, 'an unknown top-level field');
    const { counts: _counts, ...withoutCounts } = report;
    t.not((await reportSchemaProblems(withoutCounts)).length, 0, 'missing counts');
    t.not((await reportSchemaProblems(hostileReport())).length, 0, 'a step counted from 0 (as the run counts, not the file)');
    const badCurl = asWritten(hostileReport());
    (badCurl.cases[0]?.exchanges[0] as { reproduce?: string }).reproduce = 'rm -rf /';
    t.not((await reportSchemaProblems(badCurl)).length, 0, 'a reproduction that is not a curl');
  });
}

// junit-reporter.test.ts
{
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
    t.match(xml, /<testsuites name="petstore-conformance" tests="6" failures="1" errors="2" time="1\.000">/);
    t.notMatch(xml, 'name="verdict"', 'no suite carries a verdict of its own it does not have');
    t.match(xml, '<property name="runVerdict" value="failed"/>', "the run's verdict, named as the run's");
    t.match(xml, /<testsuite name="contract" tests="4" failures="1" errors="2" skipped="0" time="0\.0\d\d"/);
    t.match(
      xml,
      /<testcase name="contract\.throws"[^>]*>\s*<error message="expect\.status: the check threw: [^"]*" type="internal-error">/,
    );
    t.match(
      xml,
      /<property name="finding" value="auth\.www-authenticate: A 401 names the Bearer scheme in WWW-Authenticate \(7 responses; e\.g\. contract\.fails step 1: /,
    );
    t.match(xml, /<property name="internalError" value="expect\.status threw once /);
    t.match(
      xml,
      /FINDING step 1, auth\.www-authenticate \(a run finding, 7 in all\): 401 without/,
      'the finding beside the case it was seen in',
    );
    t.match(xml, /<testsuite name="auth" tests="2" failures="0" errors="0" skipped="1"/);
    t.match(
      xml,
      /<testcase name="contract\.fails" classname="contract\.listPets" time="0\.013">\s*<failure message="status: &lt;script&gt;alert\(&quot;x&quot;\)&lt;\/script&gt; \]\]&gt;[^"]*" type="expect.status"><!\[CDATA\[/,
    );
    t.match(
      xml,
      /<testcase name="contract\.errors"[^>]*>\s*<error message="step 1: connect ECONNREFUSED \(ECONNREFUSED\)" type="ECONNREFUSED">/,
    );
    t.match(xml, /<testcase name="auth\.skipped"[^>]*>\s*<skipped message="applies only before 2030-12-05"\/>/);
    t.match(
      xml,
      /<testcase name="contract\.warns"[^>]*>\s*<system-out><!\[CDATA\[WARNING step 1, expect.headers: Cache-Control missing/,
      'a warning is visible without failing the case',
    );
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
    await writeFile(
      file,
      '<?xml version="1.0"?>\n<testsuites><testsuite name="a" tests="1" failures="0" errors="0" time="1e-3"><testcase/></testsuite></testsuites>\n',
    );
    t.not(validateJunit(file).code, 0);
  });
}

// markdown-reporter.test.ts
{
  t.test('verdict, counts, failing checks with one-line reasons, links to the other files', async (t) => {
    const md = renderMarkdown(hostileReport(), ['report.json', 'junit.xml', 'report.html']);
    t.match(md, /^## ❌ FAILED: 1 of 6 cases failed · Pet Store conformance\n/);
    t.match(
      md,
      '| passed | failed | warned | not judged | could not test | internal error | findings |\n| ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n| 1 | 1 | 1 | 1 | 1 | 1 | 1 |',
    );
    t.match(md, /🐞 A check or phase of petstore-conformance threw[\s\S]*- expect\.status threw once/);
    t.match(md, /### Cases an internal error stopped \(1\)/);
    t.match(md, /### Findings \(1\)[\s\S]*\| `auth\.www-authenticate` \| 7 responses; e\.g\. `contract\.fails` step 1: 401 without/);
    t.match(
      md,
      /### Failing cases \(1\) in 1 group by the check and clause they broke\n\n\*\*`expect\.status`\*\* · Endpoints › listPets \(1 case\)\n\n\| case \| reason \|\n\| --- \| --- \|\n\| `contract\.fails` \| status: &lt;script&gt;/,
    );
    t.match(md, /### Cases that could not be tested \(1\)[\s\S]*`contract\.errors` \| step 1: connect ECONNREFUSED/);
    t.match(md, /### Warnings \(1\)/);
    t.match(md, "getPet is removed in 1475 days (2030-12-05, by the suite's clock)");
    t.match(md, 'Reports written beside this summary: `report.json` · `junit.xml` · `report.html`');
    t.notMatch(md, /(?<!\\)\]\((?!https?:\/\/)/, 'no relative links: they are dead inside a step summary');
  });

  t.test('failing cases are tabled by the check and clause they broke, 50 cases at most', async (t) => {
    const report = hostileReport();
    const failed = report.cases.find((c) => c.outcome === 'failed') as CaseResult;
    const group = (clause: string, n: number) => Array.from({ length: n }, (_, i) => ({ ...failed, id: `${clause}.${i}`, clause }));
    report.cases = [...group('a', 30), ...group('b', 25), ...group('c', 5)];
    const md = renderMarkdown(report);
    t.match(md, '### Failing cases (60) in 3 groups by the check and clause they broke\n\n**`expect.status`** · a (30 cases)\n');
    t.match(md, '**`expect.status`** · b (25 cases)');
    t.match(md, '| `b.19` |');
    t.notMatch(md, '| `b.20` |');
    t.match(md, '| … | 5 more in the full report |\n\n… 5 more cases in 1 more group in the full report\n');
  });

  t.test('server text cannot break the table, add markup or links', async (t) => {
    const md = renderMarkdown(hostileReport());
    t.notMatch(md, /<script/i);
    // eslint-disable-next-line no-control-regex
    t.notMatch(md, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028]/, 'no control characters, one line per row');
    for (const row of md.split('\n').filter((l) => l.startsWith('| `'))) {
      t.equal(row.replace(/\\\|/g, '').split('|').length, 4, 'two cells in each row');
    }
    t.equal(escapeMarkdown('a|b*c_[x](y)`z`<i>&'), 'a\\|b\\*c\\_\\[x\\](y)\\`z\\`&lt;i&gt;&amp;');
    t.ok(escapeMarkdown('x'.repeat(1000)).length <= 200, 'a reason is one bounded line');
  });

  t.test('a passed run says so', async (t) => {
    const report = {
      ...hostileReport(),
      verdict: 'passed' as const,
      counts: { passed: 1, failed: 0, warned: 0, 'not-judged': 0, 'could-not-test': 0, 'internal-error': 0 },
      findings: [],
      internalErrors: [],
    };
    report.cases = report.cases.filter((c) => c.outcome === 'passed');
    const md = renderMarkdown(report);
    t.match(md, /^## ✅ PASSED: 1 case\b/);
    t.notMatch(md, /###/);
  });
}

// reporter-registry.test.ts
{
  t.test('names come comma-separated or repeated; the default is every reporter but har', async (t) => {
    t.same(parseReporterNames(undefined), ['console', 'json', 'junit', 'html', 'markdown']);
    t.same(parseReporterNames(undefined), [...DEFAULT_REPORTERS]);
    t.same(parseReporterNames(['junit,console', ' HTML ']), ['console', 'junit', 'html']);
    t.same(parseReporterNames(['json', 'json']), ['json']);
    t.same(parseReporterNames(['har,markdown,json']), ['json', 'markdown', 'har'], 'har is named, never implied');
  });

  t.test('an unknown or missing name is a usage error naming the choices', async (t) => {
    t.throws(
      () => parseReporterNames(['console,xml']),
      new RunError(
        'ERR_USAGE',
        "unknown reporter 'xml'; the reporters are: console, json, junit, html, markdown, har (json:- writes the JSON to standard output)",
      ),
    );
    t.throws(() => parseReporterNames([',']), { code: 'ERR_USAGE', message: /needs at least one/ });
  });

  t.test('each name makes its reporter (the console with its companions); the summary names the files written beside it', async (t) => {
    const dir = await tempDir();
    const reporters = await createReporters(
      [...REPORTER_NAMES],
      dir,
      { stream: new PassThrough(), color: false, quiet: false },
      undefined,
      undefined,
      [{ kind: 'prometheus-rw', url: 'http://127.0.0.1:9/write' }],
    );
    t.same(
      reporters.map((r) => r.name),
      ['wait-console', 'load-console', ...REPORTER_NAMES, 'prometheus-rw'],
      'one table makes every reporter and every --out kind',
    );
    await Promise.all(reporters.filter((r) => r.name !== 'prometheus-rw').map((r) => r.onRunEnd?.(hostileReport())));
    t.match(
      await readFile(path.join(dir, 'summary.md'), 'utf8'),
      'Reports written beside this summary: `report.json` · `junit.xml` · `report.html` · `report.har`',
    );
  });

  t.test("the configuration file's reporters are the names --reporter takes", async (t) => {
    const schema = JSON.parse(await readFile(path.join(root, 'schemas/config.schema.json'), 'utf8')) as {
      properties: { reporters: { items: { enum: string[] } } };
    };
    t.same(schema.properties.reporters.items.enum, [...REPORTER_NAMES]);
  });
}

// reporter.test.ts
{
  const throwing: Reporter = {
    name: 'broken',
    onRunStart() {
      throw new Error('cannot start');
    },
    onRunEnd() {
      throw new Error('never called: the reporter is already out');
    },
  };

  t.test('a reporter that throws loses nothing of the others', async (t) => {
    const dir = await tempDir();
    const fanOut = new ReporterFanOut([
      throwing,
      new JsonReporter(dir),
      new JunitReporter(dir),
      new HtmlReporter(dir),
      new MarkdownReporter(dir, ['report.json']),
    ]);
    const report = hostileReport();
    await fanOut.listener.onRunStart(report.meta, report.cases);
    for (const result of report.cases) fanOut.listener.onCaseEnd(result);
    await fanOut.listener.onRunEnd(report);
    t.same(fanOut.failures, [{ reporter: 'broken', event: 'onRunStart', message: 'cannot start' }]);
    t.same((await readdir(dir)).sort(), ['junit.xml', 'report.html', 'report.json', 'summary.md']);
    t.same(
      fanOut.files.map((f) => path.basename(f)),
      ['report.json', 'junit.xml', 'report.html', 'summary.md'],
    );
  });

  t.test('a render that throws leaves the earlier file whole and no temporary file behind', async (t) => {
    const dir = await tempDir();
    const file = path.join(dir, 'report.html');
    await writeFile(file, 'the report of last night');
    const reporter = new FileReporter('html', file, () => {
      throw new Error('render failed');
    });
    await t.rejects(reporter.onRunEnd(hostileReport()), /render failed/);
    t.equal(await readFile(file, 'utf8'), 'the report of last night');
    t.same(await readdir(dir), ['report.html']);
    t.same(reporter.files, []);
  });

  t.test('a file that cannot be replaced fails that reporter alone', async (t) => {
    const dir = await tempDir();
    await mkdir(path.join(dir, 'junit.xml'));
    const fanOut = new ReporterFanOut([new JunitReporter(dir), new JsonReporter(dir)]);
    await fanOut.listener.onRunEnd(hostileReport());
    t.equal(fanOut.failures.length, 1);
    t.equal(fanOut.failures[0]?.reporter, 'junit');
    t.same((await readdir(dir)).sort(), ['junit.xml', 'report.json'], 'no temporary file left');
  });
}

// load-console-reporter.test.ts
{
  function sink(isTTY: boolean): Writable & { isTTY: boolean; text: string } {
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        stream.text += chunk.toString();
        done();
      },
    }) as Writable & { isTTY: boolean; text: string };
    stream.isTTY = isTTY;
    stream.text = '';
    return stream;
  }

  const progress = { profile: 'smoke', elapsedSeconds: 1, plannedSeconds: 2, requests: 502, responses: 500, errors: 0, rps: 500 };

  t.test('live progress is shown on a terminal only, and cleared at the end', async (t) => {
    const tty = sink(true);
    const reporter = new LoadConsoleReporter({ stream: tty, quiet: false });
    reporter.onLoadProgress(progress);
    reporter.onLoadEnd();
    t.match(tty.text, /load smoke: 1\/2 s, 502 requests, 500 responses, 0 errors, 500 req\/s/);
    t.match(tty.text, /\r\u001b\[K$/);
    const file = sink(false);
    const quiet = new LoadConsoleReporter({ stream: file, quiet: false });
    quiet.onLoadProgress(progress);
    quiet.onLoadEnd();
    t.equal(file.text, '', 'nothing in a log file before 10 s');
  });

  t.test('the figures at the end: resets among the errors, and connection retries counted apart', async (t) => {
    const log = sink(false);
    new LoadConsoleReporter({ stream: log, quiet: false }).onRunEnd(withLoad());
    t.match(log.text, /^load nightly: Nightly constant-rate load\n/);
    t.match(log.text, '\n  errors: 2 (timeouts 1, resets 1)\n');
    t.match(
      log.text,
      '\n  resets: 1 requests lost on a busy connection the server reset or closed before their complete response (never sent again)\n',
    );
    t.match(
      log.text,
      '\n  connection retries: 3 requests sent again on a fresh connection after the server closed an idle one (not errors)\n',
    );
  });

  t.test('every check of the load with its verdict, a threshold as its bound and what was measured, passed ones too', async (t) => {
    const load = { ...SAMPLE_LOAD, profile: { ...SAMPLE_LOAD.profile, thresholds: { p99: { max: 800 }, errors: { maxRate: 0.001 } } } };
    const log = sink(false);
    new LoadConsoleReporter({ stream: log, quiet: false }).onRunEnd({
      ...hostileReport(),
      cases: [loadCaseResult(load, new Map(), 30_000)],
      load,
    });
    const rows = [
      '  thresholds:',
      '    ✓ p99 <= 800 ms                 p99 = 61.8 ms',
      '    ✓ errors <= 0.1 % of requests   errors = 2 of 27012 (0.007 %)',
      '    ✗ resets <= 0                   resets = 1',
      '    ✗ non2xx <= 0                   non2xx = 3',
      '    ✓ mismatches <= 0               mismatches = 0',
    ];
    t.match(log.text, `\n${rows.join('\n')}\n`);
    const edited = sink(false);
    new LoadConsoleReporter({ stream: edited, quiet: false }).onRunEnd(withLoad());
    t.match(
      edited.text,
      '    ✗ load.p99      900 ms (at most 800 allowed)\n',
      'a verdict the figures do not bear out (an edited report) is shown as the report says it, with its message',
    );
  });

  t.test('in a log, a progress line every 10 s of the whole run, stages and warm-up included', async (t) => {
    const log = sink(false);
    const reporter = new LoadConsoleReporter({ stream: log, quiet: false });
    // A 5 s warm-up, then a measured stage of 30 s: progress comes once a second, each stage counting from 0.
    const seconds = [...Array.from({ length: 5 }, (_, i) => i + 1), ...Array.from({ length: 30 }, (_, i) => i + 1)];
    for (const elapsedSeconds of seconds)
      reporter.onLoadProgress({ ...progress, plannedSeconds: 30, elapsedSeconds, requests: elapsedSeconds * 200 });
    const lines = log.text.trim().split('\n');
    t.equal(lines.length, 3, `at 10, 20 and 30 s of 35: ${log.text}`);
    t.match(
      lines[0],
      /^load smoke: 5\/30 s, 1000 requests, 500 responses, 0 errors, 500 req\/s$/,
      'the 10th second is the 5th of the stage',
    );
    const quiet = sink(false);
    const silent = new LoadConsoleReporter({ stream: quiet, quiet: true });
    for (const elapsedSeconds of seconds) silent.onLoadProgress({ ...progress, elapsedSeconds });
    t.equal(quiet.text, '', 'quiet is quiet');
  });
}

// svg-charts.test.ts
{
  t.test('axes end on round numbers just above the data', async (t) => {
    t.same(niceScale(118.2), { top: 125, step: 25 });
    t.same(niceScale(1150), { top: 1250, step: 250 });
    t.same(niceScale(4), { top: 4, step: 1 });
    t.same(niceScale(0), { top: 1, step: 0.25 }, 'an empty series still has an axis');
  });

  t.test('chart data is read only when both series have the chart shape', async (t) => {
    t.same(loadChartData(SAMPLE_LOAD), { percentiles: SAMPLE_LOAD.percentiles, throughput: SAMPLE_LOAD.throughput });
    t.equal(loadChartData({ percentiles: [{ p: 50, ms: 'fast' }], throughput: [] }), undefined);
    t.equal(loadChartData({ percentiles: [] }), undefined);
    t.equal(loadChartData(null), undefined);
  });

  t.test('the charts are standalone SVG with a bar per percentile and a line over time', async (t) => {
    const latency = latencyPercentileChart(SAMPLE_LOAD.percentiles);
    t.match(latency, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    t.equal((latency.match(/<rect /g) ?? []).length, SAMPLE_LOAD.percentiles.length);
    t.match(latency, />118\.2</, 'values are labelled');
    const throughput = throughputChart(SAMPLE_LOAD.throughput);
    t.equal(
      (throughput.match(/<polyline points="([^"]+)"/)?.[1] ?? '').split(' ').length,
      2 * SAMPLE_LOAD.throughput.length,
      'a step for each second',
    );
    const short = (
      throughputChart(
        [
          { t: 1, rps: 500 },
          { t: 2, rps: 400 },
        ],
        2,
      ).match(/<polyline points="([^"]+)"/)?.[1] ?? ''
    )
      .split(' ')
      .map((p) => Number(p.split(',')[0]));
    t.same([short[0], short.at(-1)], [56, 544], 'a 2 s run spans the whole axis, from 0 s to 2 s');
    t.notMatch(`${latency}${throughput}`, /NaN|Infinity/);
    t.notMatch(throughputChart([]), /NaN|Infinity/, 'no data draws an empty chart');
  });
}

t.test('report.json counts steps from 1, as the console, HTML, JUnit and Markdown do', async (t) => {
  const report = hostileReport();
  const failed = report.cases.find((c) => c.outcome === 'failed');
  if (failed === undefined) throw new Error('the fixture has a failed case');
  const second = <T extends { step: number }>(item: T): T => ({ ...item, step: 1 });
  const twoSteps: CaseResult = {
    ...failed,
    checks: failed.checks.map(second),
    exchanges: [...failed.exchanges, ...failed.exchanges.map(second)],
  };
  const withSecond: RunReport = { ...report, cases: report.cases.map((c) => (c === failed ? twoSteps : c)) };
  const json = JSON.parse(renderJson(withSecond)) as RunReport;
  const judged = json.cases.find((c) => c.id === failed.id);
  t.same(
    judged?.checks.map((c) => c.step),
    twoSteps.checks.map(() => 2),
    'the check of the second step says step 2',
  );
  t.same(
    judged?.exchanges.map((e) => e.step),
    [1, 2],
    'each exchange its step, from 1',
  );
  const [check] = twoSteps.checks;
  const stepTwo = `step 2, ${check?.id ?? ''}`;
  t.ok(
    renderJunit(withSecond).includes(stepTwo) && renderHtml(withSecond).includes(`(step 2`),
    'the other reports say step 2 of the same check',
  );
  t.ok(
    json.warnings.every((w) => w.step >= 1) && json.findings.every((f) => f.examples.every((e) => e.step >= 1)),
    'warnings and findings too',
  );
  t.same(await reportSchemaProblems(json), [], 'and keep to report.schema.json (a step number is at least 1)');
  t.equal(withSecond.cases.find((c) => c.id === failed.id)?.checks[0]?.step, 1, 'the report in memory is left as the run counts');
});

t.test(
  "JUnit: a suite's time is the time its cases ran, side by side, never beyond the run's; hostname is the machine that ran it",
  async (t) => {
    const report = hostileReport();
    const at = (ms: number): string => new Date(Date.parse(report.meta.startedAt) + ms).toISOString();
    const timed = (c: CaseResult, startMs: number | undefined, durationMs: number): CaseResult => ({
      ...c,
      durationMs,
      exchanges: c.exchanges.map((e) => {
        const { startedAt: _dropped, ...rest } = e;
        return startMs === undefined ? rest : { ...rest, startedAt: at(startMs) };
      }),
    });
    const [first, second, third] = report.cases.filter((c) => c.exchanges.length > 0);
    if (first === undefined || second === undefined || third === undefined) throw new Error('the fixture has three cases with exchanges');
    const suiteTime = (cases: CaseResult[], runMs: number): string | undefined => {
      const one = {
        ...report,
        durationMs: runMs,
        meta: { ...report.meta, suites: ['s'] },
        cases: cases.map((c) => ({ ...c, suite: 's' })),
      };
      return /<testsuite name="s"[^>]* time="([\d.]+)"/.exec(renderJunit(one))?.[1];
    };
    const rows: Array<[what: string, cases: CaseResult[], runMs: number, seconds: string]> = [
      ['two cases at once', [timed(first, 0, 1000), timed(second, 0, 1000)], 1200, '1.000'],
      ['overlapping, then apart', [timed(first, 0, 1000), timed(second, 500, 1000), timed(third, 2000, 100)], 3000, '1.600'],
      ['a case without a start is added on its own', [timed(first, 0, 1000), timed(second, undefined, 300)], 2000, '1.300'],
      ['never beyond the run', [timed(first, undefined, 900), timed(second, undefined, 900)], 1000, '1.000'],
    ];
    for (const [what, cases, runMs, seconds] of rows) t.equal(suiteTime(cases, runMs), seconds, what);
    const xml = renderJunit(report);
    t.match(xml, `hostname="${escapeAttribute(hostname())}"`, 'the machine that ran the tests');
    t.notMatch(xml, `hostname="${new URL(report.meta.baseUrl).host}"`, 'not the service under test (a property names it)');
    t.match(renderJunit(report, 'ci-runner-7'), 'hostname="ci-runner-7"');
  },
);
