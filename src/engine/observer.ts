/** What the run observes of every exchange, whichever phase sent it: the store model and the pets the run created. */
import type { ExchangeObserver } from '../http/observe.js';
import type { Exchange } from '../model/exchange.js';
import { plays } from '../model/contract.js';
import { isJsonObject, type JsonObject } from '../model/json.js';
import type { StoreModel } from '../model/store-model.js';

/**
 * Records every pet a run creates (a 201 to POST /pets with a Pet body), and the phase that created it: an observer of the
 * run client's observe layer, so every phase's creates reach it, whoever sent them.
 */
export class CreatedPets implements ExchangeObserver {
  private readonly pets: Array<{ pet: JsonObject; phase: string | undefined }> = [];

  /** Records the pet of an exchange, when it created one, under the phase that sent it. */
  observe(exchange: Exchange, _label?: string, sentBy?: string): void {
    const body = exchange.response.json;
    if (plays(exchange.request.operation, 'create') && exchange.response.status === 201 && isJsonObject(body) && body['id'] !== undefined) {
      this.pets.push({ pet: body, phase: sentBy });
    }
  }

  /** How many pets the run created. */
  get count(): number {
    return this.pets.length;
  }

  /** The created pets, in creation order; only those these phases created when `phases` is given. */
  all(phases?: readonly string[]): JsonObject[] {
    return this.pets.filter((p) => phases === undefined || (p.phase !== undefined && phases.includes(p.phase))).map((p) => p.pet);
  }
}

/** What every answered exchange of the run passes through: the store model (what the invariants judge against), the created pets. */
export interface RunObserver {
  readonly model: StoreModel;
  /** Every pet the run created, with the phase that created it. */
  readonly created: CreatedPets;
}
