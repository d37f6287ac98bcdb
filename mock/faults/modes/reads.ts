// Reads that diverge: one view (list, search, filter, embedded copy, by id) that reads a cache no
// write invalidates, hides records by a default scope, loads fewer relations, or serializes nulls
// differently from the others.
import type { Rec } from '../../../contract/json.js';
import { operations } from '../../../specs/surface.js';
import { CHOSEN_PATHS } from '../../reference/openapi.js';
import { attributesOf, type ShownElement, type ViewElement } from './elements.js';
import { editShown, type Mode, mode, SHAPE, viewRequirements } from './mode.js';

/** The record schemas a PATCH of a served operation changes. */
const changed = () => new Set(operations(CHOSEN_PATHS).filter((o) => o.kind === 'patch' && o.record).map((o) => o.record!));

export const readModes: Mode[] = [
  mode<'view'>({
    category: 'reads',
    mode: 'stale-cache',
    kind: 'view',
    // a cache shows what a change left behind: only the records some PATCH changes (a CV's never are)
    applies: (v: ViewElement) => changed().has(v.record),
    requirements: (v) => viewRequirements(v),
    words: (v) => `${v.name} answers each record as it first showed it (a cache no write invalidates)`,
    hooks: (v) => {
      const cached = new Map<string, Rec>();
      return {
        respond: editShown(v, (o) => {
          const id = String(o.id);
          const hit = cached.get(id);
          if (hit) return hit;
          cached.set(id, o);
          return o;
        }),
      };
    },
  }),
  mode<'shown'>({
    category: 'reads',
    mode: 'default-scope-hides',
    kind: 'shown',
    // a default scope on a flag (is_active) or on a stamp that marks a record set aside (archived_at)
    applies: (s: ShownElement) => !s.view.embedded && (s.types.includes('boolean') || (s.format === 'date-time' && s.types.includes('null'))),
    requirements: (s) => [...viewRequirements(s.view), ...(s.view.view.kind === 'get' ? ['ISO-GET-MISSING-404'] : ['LIST-WALK-EVERY-RECORD-ONCE'])],
    words: (s) => `${s.view.name} hides the records whose ${s.attribute} is ${s.types.includes('boolean') ? 'false' : 'set'} (a default scope)`,
    hooks: (s) => ({
      respond: editShown(s.view, (o) => {
        const v = o[s.attribute];
        const hidden = s.types.includes('boolean') ? v === false : v !== null && v !== undefined;
        return hidden && s.view.view.kind !== 'get' ? undefined : o;
      }),
    }),
  }),
  mode<'view'>({
    category: 'reads',
    mode: 'relation-not-loaded',
    kind: 'view',
    applies: (v: ViewElement) => v.embedded !== undefined,
    requirements: (v) => [...viewRequirements(v), SHAPE.assignment!],
    words: (v) => `${v.name} holds only the embedded record's id (the relation not loaded)`,
    hooks: (v) => ({ respond: editShown(v, (o) => ({ id: o.id })) }),
  }),
  mode<'view'>({
    category: 'reads',
    mode: 'nulls-omitted',
    kind: 'view',
    // only a record with a field typed "or null" has a null to leave out
    applies: (v: ViewElement) => attributesOf(v.record).some((a) => a.types.includes('null')),
    requirements: (v) => [...viewRequirements(v), SHAPE[v.record]!],
    words: (v) => `${v.name} leaves out every null attribute (its serializer drops nulls)`,
    hooks: (v) => ({ respond: editShown(v, (o) => Object.fromEntries(Object.entries(o).filter(([, x]) => x !== null))) }),
  }),
];
