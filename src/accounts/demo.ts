/**
 * Demo accounts for the embedded quick start: one per plan, sharing a password generated into
 * DATA_DIR/demo-password on first run (never a fixed public default).
 */
import { readOrCreateSecret } from '../config.js';
import { PLANS, type PlanName } from '../plans.js';
import type { AccountsService } from './accounts.service.js';

export interface DemoAccounts {
  password: string;
  passwordFile: string;
  accounts: { email: string; plan: PlanName; created: boolean }[];
}

export function demoEmail(plan: PlanName): string {
  return `${plan.toLowerCase()}@demo.test`;
}

export async function ensureDemoAccounts(accounts: AccountsService, dataDir: string): Promise<DemoAccounts> {
  const password = readOrCreateSecret(dataDir, 'demo-password');
  const result: DemoAccounts = { password, passwordFile: `${dataDir}/demo-password`, accounts: [] };
  for (const plan of PLANS) {
    const email = demoEmail(plan);
    const existing = await accounts.findByEmail(email);
    if (!existing) await accounts.createUser({ email, password, plan, isAdmin: plan === 'Enterprise' });
    result.accounts.push({ email, plan, created: !existing });
  }
  return result;
}
