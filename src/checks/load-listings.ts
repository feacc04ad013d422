/**
 * The store invariants on the listings of a load (src/load/listing-judge.ts judges each on the generator): the load's
 * counterparts of store.listing-complete, store.listing-limit and store.listing-status, which judge the functional run's.
 */
import { failed, notJudged, passed, type RunCheck } from '../model/check.js';
import type { ListingInvariant } from '../model/load.js';

/** What each invariant says, traced to the clause its functional counterpart judges. */
const INVARIANTS: Record<ListingInvariant, { title: string; clause: string; expected: string }> = {
  complete: {
    title: 'Under load, a page shorter than its limit holds every matching pet the run saw before the load',
    clause:
      'reading-the-contract: a page shorter than its limit holds every matching pet (store.listing-complete), under load as at ' +
      'rest: held to the pets the run saw before the load, each once its consistency window has passed',
    expected: 'every matching pet the run saw before the load on a page shorter than its limit',
  },
  limit: {
    title: 'Under load, a listing holds at most limit pets (the default without one)',
    clause: 'Endpoints › listPets: limit 1..100, default 20 (store.listing-limit), under load as at rest',
    expected: 'at most limit pets',
  },
  status: {
    title: 'Under load, a listing filtered by status holds only pets of exactly that status',
    clause: 'Endpoints › listPets rule 1: with status, only animals with that status (store.listing-status), under load as at rest',
    expected: 'only pets of the status asked for',
  },
};

function listingCheck(invariant: ListingInvariant): RunCheck {
  const { title, clause, expected } = INVARIANTS[invariant];
  return {
    id: `load.listing-${invariant}`,
    title,
    clause,
    level: 'fail',
    scope: 'run',
    appliesWhen: "a load's listings were judged against the store invariants (every measured stage's, not a report of an earlier version)",
    applies: ({ load }) => load.listings !== undefined,
    sourceOf: () => undefined,
    evaluate({ load }) {
      const listings = load.listings;
      if (listings === undefined || listings.judged === 0)
        return notJudged('no listing under load was answered 200 with a JSON array: nothing to hold to the invariant');
      const count = listings.contradictions[invariant];
      // The rule that chose them is the report's (load.listings.rule): here, how many it chose.
      const rule = `${listings.judged} of ${listings.answered} listings answered 200 judged`;
      if (invariant === 'complete' && listings.knownPets === 0 && count === 0)
        return notJudged(`the run saw no pet before the load: a short page had nothing to hold (${rule})`);
      if (invariant === 'complete' && listings.shortPages === 0 && count === 0)
        return notJudged(`every page judged was as long as its limit (${rule}): only a shorter one must hold every matching pet`);
      if (invariant === 'complete' && listings.heldToKnown === 0 && count === 0)
        return notJudged(
          `no page shorter than its limit (${listings.shortPages} judged) was sent once a matching pet of the ${listings.knownPets} ` +
            `the run saw before the load had passed its consistency window (${rule}): a longer stage, or a warm-up, lets them pass it`,
        );
      const against =
        invariant === 'complete'
          ? `, ${listings.heldToKnown} short pages held to ${listings.knownPets} pets the run saw before the load`
          : '';
      if (count === 0) return passed(`${rule}${against}: none contradicts it`);
      const evidence = listings.evidence.filter((e) => e.invariant === invariant);
      const summary = `${count} of ${listings.judged} listings under load contradict it${against}`;
      const failures = evidence.map((e) => ({ message: `${e.request} → ${e.status}: ${e.message}`, expected, actual: e.bodyExcerpt }));
      // The evidence kept may all be another invariant's: the count still fails this one.
      return failed(failures.length > 0 ? failures : [{ message: summary, expected, actual: `${count} contradictions` }], summary);
    },
  };
}

/** The store invariants judged on a load's listings, in the order reports list them. */
export const LISTING_CHECKS: readonly RunCheck[] = (['complete', 'limit', 'status'] as const).map(listingCheck);
