/** Who reads, for every analytics route: the signed-in user's team and plan. */
import { requireUser } from '../http/index.js';
import type { Reader } from './analytics.service.js';

export function reader(request: { principal: Parameters<typeof requireUser>[0] }): Reader {
  const user = requireUser(request.principal);
  return { teamId: user.teamId, plan: user.plan };
}
