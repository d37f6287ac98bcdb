// A JSON object as it crosses between the parts: a record or body the API sent, a settings file,
// task meta from a worker. Declared once; read defensively with isRecord.
export type Rec = Record<string, unknown>;

export const isRecord = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);
