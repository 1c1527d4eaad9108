// Lists in form bodies (SPEC §2): a repeated key (which the form parser gives as an array) or one
// comma-separated value (`eventTypes=badge.earned,level.changed`).
import type { FastifyRequest } from 'fastify';

export function isFormBody(request: FastifyRequest): boolean {
  return request.headers['content-type']?.startsWith('application/x-www-form-urlencoded') === true;
}

/** In a form body, turns the named fields into arrays (a comma-separated value is split); other bodies are left alone. */
export function formLists(request: FastifyRequest, names: readonly string[]): void {
  if (!isFormBody(request) || typeof request.body !== 'object' || request.body === null) return;
  const body = request.body as Record<string, unknown>;
  for (const name of names) {
    const value = body[name];
    if (typeof value === 'string') body[name] = value === '' ? [] : value.split(',').map((item) => item.trim());
  }
}
