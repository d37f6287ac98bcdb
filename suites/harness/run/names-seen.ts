// The name a person sees each record the run made by (an employee's first and last name, an
// organization's name, a capture's title...), as the API answered its create: the leftovers list
// the records left behind by it. Per worker, filled by the client from every 2xx answer to a POST.
const seen = new Map<string, string>();

/** The fields that name a record, in the order they are looked for; an employee is its first and last name. */
const NAME_FIELDS = [['first_name', 'last_name'], ['name'], ['title'], ['role'], ['filename'], ['external_id']] as const;

/** Notes the name of the record a create answered, if the answer is one. */
export function noteCreated(body: unknown): void {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return;
  const rec = body as Record<string, unknown>;
  if (typeof rec.id !== 'string') return;
  for (const fields of NAME_FIELDS) {
    const parts = fields.map((f) => rec[f]).filter((v): v is string => typeof v === 'string' && v !== '');
    if (parts.length) return void seen.set(rec.id, parts.join(' '));
  }
}

/** The name the record of `id` was created with, when the run saw it. */
export const nameOf = (id: string): string | undefined => seen.get(id);
