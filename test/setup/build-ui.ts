// Vitest global setup: the UI bundle the service serves at /elements/questline.js, built once per
// run from ui/ (npm test needs no prior `npm run build`).
import { buildElements } from '../../ui/build.js';

export default async function setup(): Promise<void> {
  await buildElements();
}
