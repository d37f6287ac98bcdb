// The request mixes of the mixed-workload benchmark (mixed.ts), as seeded sequences of
// steps: the same seed gives the same sequence, run after run and server after server.
// Ids and cursors are filled in per server afterwards (sequence.ts).
//
// Read mix, what a client browsing the data sends (all requests as team A):
//   50%  GET /projects?limit=L&order=O[&cursor=C]    L uniform in 1-100, O asc or desc, and one page
//                                                     of that walk drawn uniformly (first page included)
//   30%  GET /projects/{id}                           a project drawn uniformly
//   10%  GET /assignments?limit=L&order=O[&project_id=P][&cursor=C]
//                                                     as above; half of them filtered by a project
//   10%  PATCH /projects/{id} {"notes":"…"}          a project drawn uniformly, a new note each time
//
// Write mix, an import or a sync job (creates and uploads, with the reads they invalidate):
//   15%  POST /employees {"first_name","last_name","email"}
//   15%  POST /assignments {"employee_id","project_id","role"}   existing employee and project
//   10%  POST /organizations {"name","roles"}
//   15%  POST /attachments  multipart, one of 8 files of 16 KiB, each on its own project
//    5%  POST /files        multipart, one of 8 files of 16 KiB
//   20%  PATCH /projects/{id} {"notes":"…"}
//   20%  GET /projects?limit=L&order=O[&cursor=C]    as in the read mix
import { prng } from '../mock/index.js';

export type Order = 'asc' | 'desc';

/** Fractions in [0, 1) stand for "drawn uniformly" among what the server holds (sequence.ts). */
export type Step =
  | { kind: 'list'; resource: 'projects' | 'assignments'; limit: number; order: Order; page: number; byProject?: number; }
  | { kind: 'get-project'; project: number; }
  | { kind: 'patch-notes'; project: number; note: number; }
  | { kind: 'create-employee'; n: number; }
  | { kind: 'create-assignment'; employee: number; project: number; }
  | { kind: 'create-organization'; n: number; }
  | { kind: 'upload-attachment'; file: number; }
  | { kind: 'upload-file'; file: number; };

export type MixName = 'read' | 'write';

export interface MixOptions {
  /** Default 1. */
  seed?: number;
  /** Steps in the sequence, which the load generator then repeats; default 5000. */
  length?: number;
}

/** Distinct upload bodies (files of 16 KiB); each upload step picks one. */
export const UPLOAD_VARIANTS = 8;
export const UPLOAD_BYTES = 16 * 1024;

type Draw = () => number;

const listStep = (r: Draw, resource: 'projects' | 'assignments', filtered: boolean): Step => ({
  kind: 'list',
  resource,
  limit: 1 + Math.floor(r() * 100),
  order: r() < 0.5 ? 'asc' : 'desc',
  page: r(),
  ...(filtered ? { byProject: r() } : {}),
});

/** Each mix as [cumulative share, make step]. */
const MIXES: Record<MixName, [number, (r: Draw, i: number) => Step][]> = {
  read: [
    [0.5, (r) => listStep(r, 'projects', false)],
    [0.8, (r) => ({ kind: 'get-project', project: r() })],
    [0.9, (r) => listStep(r, 'assignments', r() < 0.5)],
    [1, (r, i) => ({ kind: 'patch-notes', project: r(), note: i })],
  ],
  write: [
    [0.15, (_r, i) => ({ kind: 'create-employee', n: i })],
    [0.3, (r) => ({ kind: 'create-assignment', employee: r(), project: r() })],
    [0.4, (_r, i) => ({ kind: 'create-organization', n: i })],
    [0.55, (r) => ({ kind: 'upload-attachment', file: Math.floor(r() * UPLOAD_VARIANTS) })],
    [0.6, (r) => ({ kind: 'upload-file', file: Math.floor(r() * UPLOAD_VARIANTS) })],
    [0.8, (r, i) => ({ kind: 'patch-notes', project: r(), note: i })],
    [1, (r) => listStep(r, 'projects', false)],
  ],
};

export function mixSteps(name: MixName, options: MixOptions = {}): Step[] {
  const r = prng(options.seed ?? 1);
  const shares = MIXES[name];
  return Array.from({ length: options.length ?? 5000 }, (_, i) => {
    const x = r();
    const make = shares.find(([upTo]) => x < upTo)?.[1] ?? shares[shares.length - 1]![1];
    return make(r, i);
  });
}

/** One line per mix for the printed header. */
export const MIX_SUMMARY: Record<MixName, string> = {
  read: '50% project pages (limit 1-100, asc/desc, any page), 30% project by id, 10% assignment pages (half by project), 10% PATCH notes',
  write:
    '15% POST employees, 15% POST assignments, 10% POST organizations, 15% attachment uploads and 5% file uploads (16 KiB), 20% PATCH notes, 20% project pages',
};
