// Lists in form bodies (SPEC §2): a repeated key (which the form parser gives as an array) or one
// comma-separated value (`eventTypes=badge.earned,level.changed`).
import type { FastifyRequest } from 'fastify';
import { parse } from 'fast-querystring';
import { AppError } from '../errors.js';

export function isFormBody(request: FastifyRequest): boolean {
  return request.headers['content-type']?.startsWith('application/x-www-form-urlencoded') === true;
}

/** In a form body, turns the named fields into arrays (a comma-separated value is split); other bodies are left alone. */
export function formLists(request: FastifyRequest, names: readonly string[]): void {
  const { body } = request;
  if (!isFormBody(request) || !isFields(body)) return;
  for (const name of names) {
    const value = body[name];
    if (typeof value === 'string') body[name] = value === '' ? [] : value.split(',').map((item) => item.trim());
  }
}

/** A parsed body of named fields (a form body is always one). */
function isFields(body: unknown): body is Record<string, unknown> {
  return typeof body === 'object' && body !== null;
}

/**
 * The form parser: fast-querystring's, after one check. A JSON text sent with the form content
 * type (curl -d '{"action":"x"}' sends it so) parses as one odd field name, and the request then
 * fails for a missing field; say instead what happened.
 */
export function parseForm(text: string): Record<string, unknown> {
  const trimmed = text.trim();
  if ((trimmed.startsWith('{') && trimmed.endsWith('}')) || (trimmed.startsWith('[') && trimmed.endsWith(']'))) {
    throw new AppError(
      'unsupported_media_type',
      'The body looks like JSON but was sent as application/x-www-form-urlencoded (curl -d does that); send it with Content-Type: application/json',
    );
  }
  return parse(text);
}
