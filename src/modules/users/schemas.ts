// A user as lists of people show them: the id, and the name and image from their preferences.
import { Type } from 'typebox';
import { Nullable } from '../../http/schemas.js';

export const Person = Type.Object({
  userId: Type.String(),
  firstName: Nullable(Type.String()),
  lastName: Nullable(Type.String()),
  iconUrl: Nullable(Type.String()),
});
