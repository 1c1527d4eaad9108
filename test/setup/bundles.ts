// Vitest global setup: the bundles the service serves, built once per run (npm test needs no prior
// `npm run build`): the UI blocks at /elements/questline.js, from ui/, and the console at
// /console, from console/.
import { buildConsole } from '../../console/build.js';
import { buildElements } from '../../ui/build.js';

export default async function setup(): Promise<void> {
  await Promise.all([buildElements(), buildConsole()]);
}
