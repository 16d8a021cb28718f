// Runs analysis.worker.ts in a worker thread when the app itself runs from TypeScript sources
// (vitest, tsx, `npm run svc`): registers tsx in this thread first. The built app (dist/) loads
// analysis.worker.js directly and never reaches this file; tsx is a development dependency.
import { register } from 'tsx/esm/api';

register();
const worker = await import('./analysis.worker.ts');

export default worker.default;
