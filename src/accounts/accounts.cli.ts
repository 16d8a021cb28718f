/**
 * `svc user create|set-plan` and `svc keys create`: account administration from the shell, through
 * the same services the API uses.
 */
import { parseArgs } from 'node:util';
import { AppError, CliUsageError } from '../errors.js';
import { parsePlan, SUBSCRIPTION_STATUSES, type SubscriptionStatus } from '../plans.js';
import type { AccountsService } from './accounts.service.js';
import { API_KEY_SCOPES, type ApiKeyScope, type ApiKeysService } from './api-keys.service.js';
import { PASSWORD_MAX, PASSWORD_MIN } from './passwords.js';

export interface AccountsCliDeps {
  accounts: AccountsService;
  apiKeys: ApiKeysService;
  out: (line: string) => void;
}

function plan(value: string | undefined) {
  if (value === undefined) return undefined;
  const p = parsePlan(value);
  if (!p)
    throw new CliUsageError(`--plan must be one of Explorer, Builder, Studio, Enterprise (got "${value}")`);
  return p;
}

function status(value: string | undefined): SubscriptionStatus | undefined {
  if (value === undefined) return undefined;
  const s = SUBSCRIPTION_STATUSES.find((x) => x === value.toLowerCase());
  if (!s)
    throw new CliUsageError(`--status must be one of ${SUBSCRIPTION_STATUSES.join(', ')} (got "${value}")`);
  return s;
}

function required(name: string, value: string | undefined): string {
  if (!value) throw new CliUsageError(`--${name} is required`);
  return value;
}

export const USER_USAGE =
  'svc user create --email E --password P [--plan studio] [--admin] | svc user set-plan --email E --plan P [--status S]';
export const KEYS_USAGE =
  'svc keys create --user EMAIL --scopes read[,sdk:ingest,ingest:telemetry] [--name N]';

export async function userCommand(args: string[], deps: AccountsCliDeps): Promise<number> {
  const [sub, ...rest] = args;
  const { values } = parseArgs({
    args: rest,
    strict: true,
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      plan: { type: 'string' },
      status: { type: 'string' },
      admin: { type: 'boolean', default: false },
    },
  });
  try {
    if (sub === 'create') {
      const password = required('password', values.password);
      if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX) {
        throw new CliUsageError(`--password must be ${PASSWORD_MIN} to ${PASSWORD_MAX} characters`);
      }
      const user = await deps.accounts.createUser({
        email: required('email', values.email),
        password,
        ...(values.plan ? { plan: plan(values.plan)! } : {}),
        isAdmin: values.admin ?? false,
      });
      deps.out(`created user ${user.id} ${user.email} (${user.plan}${user.is_admin ? ', admin' : ''})`);
      return 0;
    }
    if (sub === 'set-plan') {
      const email = required('email', values.email);
      const user = await deps.accounts.findByEmail(email);
      if (!user) {
        deps.out(`no user with e-mail ${email}`);
        return 1;
      }
      const updated = await deps.accounts.updatePlan(user.id, {
        plan: plan(required('plan', values.plan)),
        status: status(values.status),
      });
      deps.out(`${updated.email}: ${updated.plan} (${updated.subscription_status})`);
      return 0;
    }
    throw new CliUsageError(`unknown subcommand "${sub ?? ''}"`);
  } catch (err) {
    if (err instanceof AppError) {
      deps.out(err.detail);
      return 1;
    }
    throw err;
  }
}

export async function keysCommand(args: string[], deps: AccountsCliDeps): Promise<number> {
  const [sub, ...rest] = args;
  const { values } = parseArgs({
    args: rest,
    strict: true,
    options: { user: { type: 'string' }, scopes: { type: 'string' }, name: { type: 'string' } },
  });
  if (sub !== 'create') throw new CliUsageError(`unknown subcommand "${sub ?? ''}"`);
  const email = required('user', values.user);
  const scopes = required('scopes', values.scopes)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = scopes.filter((s) => !API_KEY_SCOPES.includes(s as ApiKeyScope));
  if (bad.length > 0 || scopes.length === 0) {
    throw new CliUsageError(`--scopes must list ${API_KEY_SCOPES.join(', ')} (got "${values.scopes}")`);
  }
  const user = await deps.accounts.findByEmail(email);
  if (!user) {
    deps.out(`no user with e-mail ${email}`);
    return 1;
  }
  const authState = await deps.accounts.authState(user.id);
  const key = await deps.apiKeys.create(
    { userId: user.id, teamId: authState!.teamId },
    values.name ?? `cli ${new Date().toISOString().slice(0, 10)}`,
    scopes as ApiKeyScope[],
  );
  deps.out(
    `created key ${key.id} (${key.scopes.join(', ')}) for ${user.email}; the secret is shown only now:`,
  );
  deps.out(key.key);
  return 0;
}
