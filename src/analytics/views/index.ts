/** Every analytics view, in the order the API documents them. */
import { ads } from './ads.view.js';
import { brand } from './brand.view.js';
import { brandLift } from './brand-lift.view.js';
import { crashes } from './crashes.view.js';
import { engagement } from './engagement.view.js';
import { errors } from './errors.view.js';
import { geo } from './geo.view.js';
import { levels } from './levels.view.js';
import { monetization } from './monetization.view.js';
import { overview } from './overview.view.js';
import { performance } from './performance.view.js';
import { retention } from './retention.view.js';
import type { View } from './view.js';

export const VIEWS: readonly View[] = [
  overview,
  engagement,
  retention,
  levels,
  monetization,
  ads,
  geo,
  brand,
  brandLift,
  performance,
  crashes,
  errors,
] as unknown as readonly View[];
export type { View, ViewContext } from './view.js';
