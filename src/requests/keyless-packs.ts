/**
 * Keyless cells packed: without the one credential the answer is a 401 Error whatever else is wrong, so one request can
 * spell one class of each slot of its path, query and body at once (a limit, a status and a query's structure; a name,
 * a categoryId and a status) and judge each of them. Media types are not packed: a server may refuse one it does not
 * serve before it reads the key (406, 415), and a Content-Type decides whether a body is parsed at all, so either would
 * hide what the other slots do. The phase sends a pack that breaks its relation again cell by cell, so a broken cell is
 * named.
 */
import { generated } from './generated-case.js';
import type { Contract } from '../model/contract.js';
import type { RequestSpec } from '../model/scenario.js';
import { bodyText, type Cell, canonicalOf } from './request-space.js';

/** The keyless request that spells each member's class in its slot, from the operation's canonical request. */
function packedRequest(contract: Contract, members: readonly Cell[], index: number): RequestSpec | undefined {
  const first = members[0];
  const op = first === undefined ? undefined : contract.operations.get(first.operation);
  if (op === undefined) return undefined;
  const canonical = canonicalOf(contract, op, 'keyless', `pack ${index}`);
  const request: RequestSpec = { ...canonical.request, auth: 'none' };
  const fields = canonical.fields === undefined ? undefined : { ...canonical.fields };
  const query: string[] = [];
  for (const { source } of members) {
    const { slot, spelling } = source;
    const [place, name = ''] = slot.id.split('.');
    if (place === 'path') request.path = request.path.replace(`{${name}}`, spelling.text);
    else if (slot.type === 'query-name' || slot.type === 'query-structure') query.push(spelling.text);
    else if (place === 'query') query.push(`${name}=${spelling.text}`);
    else if (place === 'body' && fields !== undefined) fields[name] = spelling.text;
    else if (slot.type === 'accept' || slot.type === 'content-type') {
      const header = slot.type === 'accept' ? 'Accept' : 'Content-Type';
      if (spelling.cls === 'absent') {
        request.omitHeaders = [header];
        request.headers = Object.fromEntries(Object.entries(request.headers ?? {}).filter(([key]) => key !== header));
      } else request.headers = { ...request.headers, [header]: spelling.text };
    }
  }
  if (query.length > 0) request.rawQuery = query.join('&');
  if (fields !== undefined) request.body = bodyText(fields);
  return request;
}

/**
 * Whether a cell may share its request: not a header's (above), nor one that spells the whole path, body or framing, nor
 * a pair of slots (its second parameter would be spelled twice).
 */
function packable(cell: Cell): boolean {
  const { place, type, alongside } = cell.source.slot;
  return place !== 'header' && type !== 'path-structure' && type !== 'document' && type !== 'framing' && alongside === undefined;
}

/** Packs the keyless cells of each operation: the i-th pack holds the i-th keyless class of each of its slots. */
export function packKeyless(contract: Contract, cells: readonly Cell[]): void {
  const operations = [...new Set(cells.map((cell) => cell.operation))];
  for (const operation of operations) {
    const bySlot = new Map<string, Cell[]>();
    for (const cell of cells)
      if (cell.operation === operation && cell.credential === 'without' && cell.spec !== undefined && packable(cell))
        bySlot.set(cell.slot, [...(bySlot.get(cell.slot) ?? []), cell]);
    const longest = Math.max(0, ...[...bySlot.values()].map((slotCells) => slotCells.length));
    for (let index = 0; index < longest; index += 1) {
      const members = [...bySlot.values()].flatMap((slotCells) => slotCells.slice(index, index + 1));
      const request = packedRequest(contract, members, index);
      const op = contract.operations.get(operation);
      if (members.length < 2 || request === undefined || op === undefined) continue;
      const packed = generated(op, {
        id: `space.${operation}.keyless.${index}`,
        title: `${operation} without the key, spelling ${members.map((cell) => `${cell.slot} as ${cell.cls}`).join(', ')}`,
        clause: 'Authentication rule 1: a missing API key is answered with 401 and an Error body, whatever else is wrong',
        suite: 'auth',
        steps: [{ request, expect: { keyFirst: true } }],
      });
      for (const cell of members) cell.packed = packed;
    }
  }
}
