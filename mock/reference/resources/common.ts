// Small helpers shared by the resource routes.
import { randomUUID } from 'node:crypto';
import { schema, type SchemaName } from '../../../specs/index.js';
import type { AppContext } from '../context.js';
import type { Result } from '../exchange.js';
import { nowIso, type Row } from '../store.js';

/** A fresh id for a record created through the API (§2: a string in UUID format; here a canonical UUID v4). */
export function newId(ctx: AppContext): string {
  return ctx.hooks.newId ? ctx.hooks.newId(randomUUID) : randomUUID();
}

const fieldCache = new Map<SchemaName, readonly string[]>();

/** The body fields a request schema names; every other field is ignored (§9). */
export function writableFields(name: SchemaName): readonly string[] {
  let f = fieldCache.get(name);
  if (!f) {
    f = Object.keys((schema(name) as { properties?: object; }).properties ?? {});
    fieldCache.set(name, f);
  }
  return f;
}

export function pick(body: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of fields) if (body[k] !== undefined) out[k] = body[k];
  return out;
}

/**
 * A PATCH changes the fields it names (§4 "JSON subset of ... fields") and stamps updated_at; id
 * and created_at stay. A null reaches here only for a field typed nullable, and is kept as null.
 */
export function patchedRow(cur: Row, body: Record<string, unknown>, name: SchemaName): Row {
  return { ...cur, ...pick(body, writableFields(name)), id: cur.id, created_at: cur.created_at, updated_at: nowIso() };
}

export const json = (status: number, value: unknown): Result => ({ status, json: JSON.stringify(value) });
export const raw = (status: number, serialized: string): Result => ({ status, json: serialized });

/** The status of a successful create: 201, or 200 under reading create-status (§4 does not show it). */
export const createdStatus = (ctx: AppContext): number => Number(ctx.readings.value('create-status'));

/** The §2 delete result. */
export const deleteResult = (): Result => json(200, { success: true });
