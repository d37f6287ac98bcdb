// Written faults of what the document says of every response, whichever check receives it: the
// page envelope (§2), the readings of timestamps (§2 conventions: strings, formats not shown), and
// references that resolve within the caller's team (§1 every record belongs to a team).
import type { Rec } from '../../../contract/json.js';
import { fault } from '../fault.js';
import { isList } from '../lists.js';
import { editBody, editRecords, operationsOf } from '../records.js';

const listOperations = operationsOf('get').filter(isList);

export const responseFaults = [
  fault('next-cursor-null-last-page', ['RES-PAGE-ENVELOPE'], 'the last page of every list carries "nextCursor": null (§2 types it string)', () => ({
    respond: editBody(listOperations, (body) => {
      const page = body.page as Rec | undefined;
      return page && page.hasMore === false ? { ...body, page: { ...page, nextCursor: null } } : body;
    }),
  })),
  fault('timestamp-unreadable', ['RES-TIMESTAMPS-DATES-STRINGS'], 'employee updated_at is served as the string "recently", which reads as no timestamp',
    () => ({
      respond: editRecords('employee', (o) => ('updated_at' in o ? { ...o, updated_at: 'recently' } : o)),
    })),
  fault('reference-names-other-team', ['ISO-REFERENCE-OTHER-TEAM-AS-MISSING'],
    "in the legacy shape, every project's client_org_id names an organization of the other team", (ctx) => ({
      respond: editRecords('project', (o, ex) => {
        if (!('client_org_id' in o)) return o;
        const theirs = ctx.store.collections.organizations.entries(ex.principal.team === 'A' ? 'B' : 'A')[0];
        return theirs ? { ...o, client_org_id: theirs.row.id } : o;
      }),
    }), 'legacy'),
] as const;
