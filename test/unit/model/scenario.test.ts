/** A case's steps in waves: a step alone, or steps sent alongside the one before them; a case of independent steps is one wave. */
import t from 'tap';
import { type CaseSpec, type StepSpec, stepWaves } from '../../../src/model/scenario.js';

const step = (alongside?: boolean): StepSpec => ({
  request: { method: 'GET', path: '/pets' },
  ...(alongside === undefined ? {} : { alongside }),
});
const spec = (steps: StepSpec[], independentSteps?: boolean): CaseSpec => ({
  id: 'x',
  title: 'x',
  clause: 'x',
  suite: 'x',
  operation: 'listPets',
  level: 'fail',
  writes: false,
  steps,
  ...(independentSteps === undefined ? {} : { independentSteps }),
});

t.test('stepWaves', async (t) => {
  const rows: Array<[string, CaseSpec, number[][]]> = [
    ['no step', spec([]), []],
    ['one after another', spec([step(), step(), step()]), [[0], [1], [2]]],
    [
      'creates together, then reads together',
      spec([step(), step(true), step(true), step(), step(true)]),
      [
        [0, 1, 2],
        [3, 4],
      ],
    ],
    ['alongside on the first step has nothing to go with', spec([step(true), step()]), [[0], [1]]],
    ['alongside: false is one after another', spec([step(), step(false)]), [[0], [1]]],
    ['independent steps are one wave', spec([step(), step(), step()], true), [[0, 1, 2]]],
  ];
  for (const [what, given, waves] of rows) t.same(stepWaves(given), waves, what);
});
