/** The reference server's in-memory catalogue, indexed by id and by status so a listing never scans. */
import { stringifyExactJson } from '../model/json.js';

/** The statuses of the contract. */
export const PET_STATUSES = ['available', 'pending', 'sold'] as const;

/** A pet status. */
export type PetStatus = (typeof PET_STATUSES)[number];

/** A stored pet: id and categoryId as bigint so every int64 survives exactly. */
export interface StoredPet {
  id: bigint;
  name: string;
  categoryId: bigint;
  status?: PetStatus;
}

interface Entry {
  pet: StoredPet;
  /** The pet serialised once; listings join these strings. */
  json: string;
}

/** An in-memory pet catalogue in creation order. */
export class PetCatalogue {
  private readonly byId = new Map<string, Entry>();
  private readonly all: Entry[] = [];
  private readonly byStatus = new Map<PetStatus, Entry[]>(PET_STATUSES.map((s) => [s, []]));
  /** Listing pages already serialised, by limit and status; a write empties it. */
  private readonly pages = new Map<string, string>();
  private nextId: bigint;

  constructor(firstId: bigint) {
    this.nextId = firstId;
  }

  /** Adds a pet, assigning the next id. */
  add(fields: Omit<StoredPet, 'id'>): StoredPet {
    const pet: StoredPet = { id: this.nextId, ...fields };
    this.nextId += 1n;
    const entry = { pet, json: stringifyExactJson(pet) };
    this.byId.set(pet.id.toString(), entry);
    this.all.push(entry);
    if (pet.status) this.byStatus.get(pet.status)?.push(entry);
    this.pages.clear();
    return pet;
  }

  /** The pet with this id, as JSON text. */
  findJson(id: bigint): string | undefined {
    return this.byId.get(id.toString())?.json;
  }

  /** A listing page as JSON text: at most `limit` pets, optionally only those of one status. */
  pageJson(limit: number, status?: PetStatus, newestFirst = false): string {
    const key = `${limit} ${status ?? ''} ${newestFirst ? 'newest' : 'oldest'}`;
    const cached = this.pages.get(key);
    if (cached !== undefined) return cached;
    const source = status === undefined ? this.all : (this.byStatus.get(status) ?? []);
    const page = newestFirst ? source.slice(-limit).reverse() : source.length <= limit ? source : source.slice(0, limit);
    const json = `[${page.map((e) => e.json).join(',')}]`;
    this.pages.set(key, json);
    return json;
  }

  /** How many pets are stored. */
  get size(): number {
    return this.all.length;
  }
}

const NAMES = ['Rex', 'Bella', 'Milo', 'Luna', 'Coco', 'Max', 'Nala', 'Otis', 'Pip', 'Zara'];

/** Seeds a catalogue with pets of every status: more than 100 available, fewer pending and sold. */
export function seedCatalogue(
  catalogue: PetCatalogue,
  counts: Record<PetStatus, number> = { available: 110, pending: 30, sold: 20 },
): void {
  let n = 0;
  for (const status of PET_STATUSES) {
    for (let i = 0; i < counts[status]; i++, n++) {
      catalogue.add({ name: `${NAMES[n % NAMES.length] as string} ${n + 1}`, categoryId: BigInt((n % 5) + 1), status });
    }
  }
}
