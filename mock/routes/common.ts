// Small helpers shared by the resource routes.
import { randomUUID } from 'node:crypto';
import { schema, type SchemaName } from '../../specs/index.js';
import type { AppContext } from '../context.js';
import type { Result } from '../route.js';

/** A fresh id for a record created through the API (canonical UUID v4). */
export function newId(ctx: AppContext): string {
  const id = randomUUID();
  if (ctx.faults.on('id-not-uuid')) return `rec_${id.replace(/-/g, '').slice(0, 12)}`;
  if (ctx.faults.on('id-version-0')) return `${id.slice(0, 14)}0${id.slice(15)}`;
  return id;
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

export const json = (status: number, value: unknown): Result => ({ status, json: JSON.stringify(value) });
export const raw = (status: number, serialized: string): Result => ({ status, json: serialized });

/** The status of a successful create: 201, or 200 under reading create-status (§4 does not show it). */
export const createdStatus = (ctx: AppContext): number => Number(ctx.readings.value('create-status'));

/** The §2 delete result (or the delete-result-wrong fault's shape). */
export const deleteResult = (ctx: AppContext): Result => json(200, ctx.faults.on('delete-result-wrong') ? { deleted: true } : { success: true });
