/** The checks that judge a request that got no response at all. */
import { couldNotTest, failed, type TransportCheck } from '../model/check.js';

/** A request the server took and never answered, while it answered others, is the server's failure; anything else could not be tested. */
const serverAnswers: TransportCheck = {
  id: 'server.answers',
  title: 'Every request is answered: one left unanswered while the server answers others is a failure',
  clause: 'reading-the-contract: a valid request left unanswered while the server answers others is broken by any reading',
  level: 'fail',
  scope: 'transport',
  appliesWhen: 'a request got no response (a timeout, a refused or reset connection)',
  evaluate({ message, code, timedOut, answeredMeanwhile, closedTwice, cutShort }) {
    if ((timedOut || closedTwice === true || cutShort === true) && answeredMeanwhile > 0) {
      const how =
        closedTwice === true ? `${message}, on a fresh connection too` : cutShort === true ? `${message}, after the answer began` : message;
      return failed({
        message: `${how}, while the server answered ${answeredMeanwhile} other request${answeredMeanwhile === 1 ? '' : 's'}`,
        expected: 'a response',
        actual: `${message} (${code})`,
      });
    }
    return couldNotTest(`${message} (${code})`);
  },
};

/** Every transport check. */
export const TRANSPORT_CHECKS: readonly TransportCheck[] = [serverAnswers];
