/** The events of a run, declared once: the listener's methods and the fan-out are made of RUN_EVENTS, never spelled by hand. */
import t from 'tap';
import { eventOf, fieldsOf, listenerOf, methodOf, RUN_EVENT_TYPES, type RunEvent, tellListener } from '../../../src/model/events.js';

t.test('each event type names its listener method: on and the type in PascalCase', async (t) => {
  const cases: [Parameters<typeof methodOf>[0], string][] = [
    ['case-end', 'onCaseEnd'],
    ['wait', 'onWait'],
    ['run-not-started', 'onRunNotStarted'],
    ['reports-written', 'onReportsWritten'],
  ];
  for (const [type, method] of cases) t.equal(methodOf(type), method, type);
  t.equal(new Set(RUN_EVENT_TYPES.map(methodOf)).size, RUN_EVENT_TYPES.length, 'no two events share a method');
});

t.test('an event told to a listener and a listener call turned into an event are one another, for every event', async (t) => {
  for (const type of RUN_EVENT_TYPES) {
    const fields = ['a', 'b'];
    const event = eventOf(type, fields);
    const told: { method: string; fields: unknown[] }[] = [];
    const listener = Object.fromEntries(
      RUN_EVENT_TYPES.map((other) => [methodOf(other), (...args: unknown[]) => void told.push({ method: methodOf(other), fields: args })]),
    );
    tellListener(listener, event);
    t.same(told, [{ method: methodOf(type), fields: fieldsOf(event) }], `${type}: its method, with its fields in order`);
    const emitted: RunEvent[] = [];
    (listenerOf((e) => void emitted.push(e)) as Record<string, (...args: unknown[]) => void>)[methodOf(type)]?.(...fieldsOf(event));
    t.same(emitted, [event], `${type}: the method's call is the same event`);
  }
  t.same(eventOf('run-start', ['meta', 'cases']), { type: 'run-start', meta: 'meta', cases: 'cases' }, 'fields by their declared names');
  t.equal(tellListener({}, { type: 'load-end' }), undefined, 'a listener without the method hears nothing');
});
