// Schema pieces the routes share (SPEC §2): instants as ISO 8601 UTC, and values that may be null.
import { Type, type TSchema } from 'typebox';

export const Instant = Type.String({ format: 'date-time' });

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
