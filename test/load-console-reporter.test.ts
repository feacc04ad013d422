import t from 'tap';
import { Writable } from 'node:stream';
import { LoadConsoleReporter } from '../dist/reporters/load-console-reporter.js';

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

const progress = { profile: 'smoke', elapsedSeconds: 1, plannedSeconds: 2, responses: 500, rps: 500 };

t.test('live progress is shown on a terminal only, and cleared at the end', async (t) => {
  const tty = sink(true);
  const reporter = new LoadConsoleReporter({ stream: tty, quiet: false });
  reporter.onLoadProgress(progress);
  reporter.onLoadEnd();
  t.match(tty.text, /load smoke: 1\/2 s, 500 responses, 500 req\/s/);
  t.match(tty.text, /\r\u001b\[K$/);
  const file = sink(false);
  const quiet = new LoadConsoleReporter({ stream: file, quiet: false });
  quiet.onLoadProgress(progress);
  quiet.onLoadEnd();
  t.equal(file.text, '', 'nothing in a log file');
});
