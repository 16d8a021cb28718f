import type { App } from '../http/index.js';
import type { Entitlements } from '../plans.js';
import { PlanInfo, PlansResponse } from './accounts.schemas.js';
import { planTable } from './plans-view.js';

export function registerPlanRoutes(app: App, entitlements: Entitlements): void {
  // Built once: the entitlements are configuration, fixed for the life of the process.
  const plans = planTable(entitlements);
  app.get(
    '/api/plans',
    {
      config: { access: { auth: 'optional' } },
      schema: {
        tags: ['plans'],
        summary: 'Every plan and what it unlocks',
        description:
          'Explorer, Builder, Studio, Enterprise in that order, each with the entitlements this server applies ' +
          '(the built-in table of DECISIONS §2 with any ENTITLEMENTS override) and a one-line `summary`. ' +
          'null in `trending_max` and `sdk_history_days` means unlimited; a null `forecast` means no forecasts. ' +
          'Anyone may read it, signed in or not. Plans are changed by an administrator (PATCH /api/admin/users/{id}).',
        response: { 200: PlansResponse },
      },
    },
    async () => ({ plans }),
  );
}

export const planSchemas = [PlanInfo];
