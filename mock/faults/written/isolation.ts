// Written faults of team isolation (§1 "A record that belongs to another team is reported as
// missing, the same as an id that does not exist"; §4 404 not_found) and of path ids (§4).
import { isPathId } from '../../../specs/index.js';
import { ApiError, badRequest, notFound } from '../../reference/errors.js';
import type { Exchange } from '../../reference/exchange.js';
import type { Access, Find, Hooks } from '../../reference/hooks.js';
import type { Entry } from '../../reference/store.js';
import { fault } from '../fault.js';
import { fromEveryTeam, isList } from '../lists.js';
import { letThrough } from '../refusals.js';

/** Another team's record the lookup names, if any. */
const othersRecord = (ex: Exchange, find: Find): Entry | undefined => {
  const e = find.collection.find(find.id);
  return e && e.team !== ex.principal.team ? e : undefined;
};

/** A lookup hook answering `onOther` when the id names another team's record, for the accesses given. */
const whenOthers =
  (accesses: readonly Access[], onOther: (other: Entry, ex: Exchange, find: Find) => Entry): NonNullable<Hooks['lookup']> => (ex, find, next) =>
    !accesses.includes(find.access) ? next() : letThrough(next, (err) => {
      const other = othersRecord(ex, find);
      if (!other) throw err;
      return onOther(other, ex, find);
    });

const served = (other: Entry) => other;
const BY_ID: readonly Access[] = ['read', 'write', 'delete'];

/** Hex digits of an id, ignoring the version and variant nibbles. */
const looseKey = (id: string): string => {
  const hex = id.toLowerCase().replace(/[^0-9a-f]/g, '').slice(0, 32);
  return hex.slice(0, 12) + hex.slice(13, 16) + hex.slice(17);
};

export const isolationFaults = [
  fault('other-team-readable', ['ISO-GET-OTHER-TEAM-404', 'ISO-OTHER-TEAM-AS-MISSING', 'CHANGELOG-1-6-0-NOT-FOUND', 'ERR-NOT-FOUND'],
    "GET by id serves another team's record", () => ({ lookup: whenOthers(['read'], served) })),
  fault('other-team-patchable', ['ISO-MUTATE-OTHER-TEAM-NO-EFFECT', 'ISO-OTHER-TEAM-AS-MISSING'], "PATCH changes another team's record", () => ({
    lookup: whenOthers(['write'], served),
  })),
  fault('other-team-deletable', ['ISO-MUTATE-OTHER-TEAM-NO-EFFECT', 'ISO-OTHER-TEAM-AS-MISSING'], "DELETE removes another team's record", () => ({
    lookup: whenOthers(['delete'], served),
  })),
  fault('not-found-distinguishable', ['ISO-OTHER-TEAM-AS-MISSING', 'ISO-GET-OTHER-TEAM-404', 'CHANGELOG-1-6-0-NOT-FOUND'],
    "another team's id answers 403 forbidden instead of 404", () => ({
      lookup: whenOthers(BY_ID, () => {
        throw new ApiError(403, 'forbidden', 'This record belongs to another team');
      }),
    })),
  fault('not-found-leaks-record', ['ISO-OTHER-TEAM-NO-EXISTENCE-LEAK'], "the 404 for another team's id carries the record's id and title in detail", () => ({
    lookup: whenOthers(BY_ID, (other) => {
      throw new ApiError(404, 'not_found', 'Not found', { id: other.row.id, title: String(other.row.title ?? other.row.name ?? other.row.filename ?? '') });
    }),
  })),
  fault('not-found-says-other-team', ['ISO-OTHER-TEAM-AS-MISSING'], "the 404 for another team's id says the record belongs to another team", () => ({
    lookup: whenOthers(BY_ID, () => {
      throw new ApiError(404, 'not_found', 'This record belongs to another team');
    }),
  })),
  fault('other-team-in-list', ['ISO-LIST-OWN-TEAM-ONLY'], "lists include other teams' records", () => ({ list: fromEveryTeam(() => true) })),
  fault('list-filter-leaks', ['ISO-LIST-OWN-TEAM-ONLY'], 'filtered lists (project_id, employee_id, entity) search every team', () => ({
    list: fromEveryTeam((_ex, plan) => plan.source.filters.length > 0),
  })),
  fault('filter-other-team-distinguishable', ['ISO-OTHER-TEAM-AS-MISSING'],
    "a list filtered by another team's id (project_id, employee_id, entity_id) answers 404, by a missing id an empty page", (ctx) => ({
      handle: (ex, next) => {
        const ids = ['project_id', 'employee_id', 'entity_id'].map((f) => ex.query[f]).filter((v): v is string => typeof v === 'string' && v !== '');
        const cols = Object.values(ctx.store.collections);
        const othersId = (id: string) => cols.some((col) => othersRecord(ex, { collection: col, id, access: 'read' }) !== undefined);
        if (isList(ex.operationId) && ids.some(othersId)) throw notFound();
        return next();
      },
    })),
  fault('cross-team-reference-accepted', ['ISO-REFERENCE-OTHER-TEAM-AS-MISSING'],
    "POST /assignments and POST /attachments accept another team's employee/project/entity", () => ({ lookup: whenOthers(['reference'], served) })),
  fault('reference-says-other-team', ['ISO-REFERENCE-OTHER-TEAM-AS-MISSING'],
    "a body reference to another team's record is refused with the status of a missing one (400), but says it belongs to another team", () => ({
      lookup: whenOthers(['reference'], (_other, _ex, find) => {
        throw badRequest('The referenced record belongs to another team', { [find.field ?? 'id']: 'belongs to another team' });
      }),
    })),
  fault('get-by-id-wrong-record', ['EP-PROJECTS-GET', 'EP-ASSIGNMENTS-GET', 'EP-FILES-GET', 'CHANGELOG-1-6-0-GET-BY-ID'],
    'GET by id answers another record of the team', () => ({
      lookup: (ex, find, next) => {
        const own = next();
        return find.access === 'read' ? find.collection.entries(ex.principal.team).find((e) => e !== own) ?? own : own;
      },
    })),
  fault('malformed-id-accepted', ['ID-NON-CANONICAL-NOT-SERVED'], 'non-canonical forms of an id (no hyphens, braces, other version/variant) are served',
    () => ({
      pathId: (_ex, id) => id,
      lookup: (ex, find, next) =>
        find.access === 'reference' ? next() : letThrough(next, (err) => {
          const loose = find.collection.entries(ex.principal.team).find((e) => looseKey(e.row.id) === looseKey(find.id));
          if (!loose) throw err;
          return loose;
        }),
    })),
  fault('nil-id-rejected', ['ID-NIL-MAX-NOT-FOUND'], 'the all-zero and all-f UUIDs answer 400 instead of 404', () => ({
    pathId: (_ex, id, next) => {
      if (isPathId(id) && /^(0{8}-0{4}-0{4}-0{4}-0{12}|f{8}-f{4}-f{4}-f{4}-f{12})$/i.test(id)) {
        throw badRequest('Invalid id', { id: 'must be a version 1-8 UUID' });
      }
      return next();
    },
  })),
] as const;
