/**
 * Accounts: registration, login, refresh-token rotation with reuse detection, logout, the
 * current user, plan changes, and authenticating access tokens. Every session dies when the
 * account's token version moves (login, logout, reuse of a refresh token).
 */
import { randomUUID } from 'node:crypto';
import type { AuditActor, AuditService } from '../audit/index.js';
import type { Clock } from '../clock.js';
import type { Db, Queryable } from '../db/index.js';
import { AppError, errors } from '../errors.js';
import type { Kv } from '../kv/index.js';
import { entitledPlan, type PlanName, type SubscriptionStatus } from '../plans.js';
import { type AccountMailer, resetMail, verifyMail } from './account-mail.js';
import * as repo from './accounts.repo.js';
import type { AdminUsersQueryT, AdminUserT, UserT } from './accounts.schemas.js';
import { assertNotThrottled, loginScopes, recordFailure, recordSuccess } from './login-throttle.js';
import { assertMailAllowed } from './mail-throttle.js';
import { hashPassword, verifyPassword } from './passwords.js';
import {
  newAccountToken,
  newRefreshToken,
  REFRESH_TTL_SEC,
  RESET_TTL_MS,
  sha256,
  type TokenSigner,
  VERIFY_TTL_MS,
} from './tokens.js';

export interface AccountsDeps {
  db: Db;
  kv: Kv;
  clock: Clock;
  signer: TokenSigner;
  /** Sends the verification and reset e-mails. */
  mailer: AccountMailer;
  /** The address users reach (PUBLIC_URL): the mailed links point at its web pages. */
  publicUrl: string;
  /** Sign-ins, plan and password changes go to the audit log of the user's teams. */
  audit: AuditService;
}

/** The signed-in user as /api/auth/me answers it. */
export type User = UserT;

export interface Session {
  user: User;
  accessToken: string;
  refreshToken: string;
  /** The refresh-token family: one per login, kept across refreshes. */
  sessionId: string;
}

export interface AuthState {
  userId: number;
  /** The stored plan; entitlements follow entitledPlan() of it, the status and its time. */
  plan: PlanName;
  status: SubscriptionStatus;
  /** When the status last changed (epoch ms). */
  statusSinceMs: number;
  isAdmin: boolean;
  teamId: number;
  tokenVersion: number;
}

/** Where a sign-in came from, for the audit log. */
export interface SignInContext {
  ip: string;
  userAgent?: string | undefined;
  /** "password", "oauth:google", "oauth:roblox", ... */
  method: string;
}

const AUTH_CACHE_MS = 30_000;
const UNIQUE_VIOLATION = '23505';

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Versioned: the cached shape gained the subscription status (older entries are never read). */
function authStateKey(userId: number): string {
  return `auth:v2:${userId}`;
}

function invalidCredentials(): AppError {
  return errors.notAuthenticated('Wrong e-mail or password.');
}

function resetTokenInvalid(): AppError {
  return errors.unprocessable(
    'reset_token_invalid',
    'This password reset link is invalid, expired or already used; ask for a new one.',
    'body.token',
  );
}

function verifyTokenInvalid(): AppError {
  return errors.unprocessable(
    'verification_token_invalid',
    'This verification link is invalid, expired or already used; ask for a new one.',
    'body.token',
  );
}

export class AccountsService {
  constructor(private readonly deps: AccountsDeps) {}

  private async toUser(db: Queryable, row: repo.UserRow): Promise<User> {
    return {
      id: row.id,
      email: row.email,
      plan: row.plan,
      subscription_status: row.subscription_status,
      tracked_games: await repo.trackedUniverseIds(db, row.id),
      is_admin: row.is_admin,
      email_verified: row.email_verified_at !== null,
    };
  }

  async createUser(input: {
    email: string;
    /** null: no password (an account made by a third-party sign-in; password login always fails). */
    password: string | null;
    plan?: PlanName;
    isAdmin?: boolean;
    status?: SubscriptionStatus;
    /** Default true (the CLI, administrators, demo seeding); public sign-ups pass false. */
    emailVerified?: boolean;
  }): Promise<User> {
    const email = normaliseEmail(input.email);
    const plan = input.plan ?? 'Explorer';
    const passwordHash = input.password === null ? null : await hashPassword(input.password);
    try {
      const row = await this.deps.db.transaction(async (tx) => {
        const teamId = await repo.insertTeam(tx, email);
        const user = await repo.insertUser(tx, {
          email,
          passwordHash,
          plan,
          status: input.status ?? (plan === 'Explorer' ? 'none' : 'active'),
          isAdmin: input.isAdmin ?? false,
          teamId,
          now: this.deps.clock.now(),
          emailVerified: input.emailVerified ?? true,
        });
        await repo.insertPersonalOwner(tx, teamId, user.id, this.deps.clock.now());
        return user;
      });
      return await this.toUser(this.deps.db, row);
    } catch (err) {
      if ((err as { code?: string }).code === UNIQUE_VIOLATION) {
        throw errors.conflict('email_taken', 'An account with this e-mail already exists.');
      }
      throw err;
    }
  }

  /** Public sign-up: always an Explorer account, unverified until the mailed link is followed. */
  async register(email: string, password: string): Promise<User> {
    const user = await this.createUser({ email, password, emailVerified: false });
    await this.mailVerification(user.id, user.email);
    return user;
  }

  /** A fresh verification token for the user, mailed to their address. */
  private async mailVerification(userId: number, email: string): Promise<void> {
    const token = newAccountToken();
    const now = this.deps.clock.now();
    const afterCommit = await this.deps.db.transaction(async (tx) => {
      await repo.insertAccountToken(tx, {
        userId,
        kind: 'verify',
        hash: sha256(token),
        expiresAt: new Date(now.getTime() + VERIFY_TTL_MS),
        now,
      });
      return this.deps.mailer.queue(tx, email, verifyMail(this.deps.publicUrl, token), true);
    });
    afterCommit();
  }

  /** Mails the signed-in user a new verification link; 409 when the address is already verified. */
  async resendVerification(userId: number, ip: string): Promise<void> {
    const row = await repo.findUserById(this.deps.db, userId);
    if (!row) throw errors.notFound('No such user.');
    if (row.email_verified_at !== null) {
      throw errors.conflict('email_already_verified', 'This e-mail address is already verified.');
    }
    await assertMailAllowed(
      this.deps.kv,
      'resend',
      { ip, email: row.email },
      this.deps.clock.now().getTime(),
    );
    await this.mailVerification(row.id, row.email);
  }

  /** Uses a verification token: the address is verified. 422 verification_token_invalid otherwise. */
  async verifyEmail(token: string, ip: string): Promise<void> {
    const now = this.deps.clock.now();
    await assertMailAllowed(this.deps.kv, 'verify', { ip }, now.getTime());
    const verified = await this.deps.db.transaction(async (tx) => {
      const userId = await repo.consumeAccountToken(tx, { kind: 'verify', hash: sha256(token), now });
      if (userId === undefined) return false;
      await repo.markEmailVerified(tx, userId, now);
      return true;
    });
    if (!verified) throw verifyTokenInvalid();
  }

  /**
   * Mails a reset link when the address has an account, and nothing otherwise, in the same number
   * of statements either way: the caller answers 202 alike, so no account can be found out.
   */
  async forgotPassword(emailInput: string, ip: string): Promise<void> {
    const email = normaliseEmail(emailInput);
    const now = this.deps.clock.now();
    await assertMailAllowed(this.deps.kv, 'forgot', { ip, email }, now.getTime());
    const token = newAccountToken();
    const mail = resetMail(this.deps.publicUrl, token);
    const afterCommit = await this.deps.db.transaction(async (tx) => {
      const userId = await repo.insertAccountTokenByEmail(tx, {
        email,
        kind: 'reset',
        hash: sha256(token),
        expiresAt: new Date(now.getTime() + RESET_TTL_MS),
        now,
      });
      return this.deps.mailer.queue(tx, email, mail, userId !== undefined);
    });
    afterCommit();
  }

  /**
   * Sets a new password with a reset token and ends every session of the account (the token
   * version moves). The other reset links die with it; the address counts as verified (the link
   * reached it). 422 reset_token_invalid for a token that is unknown, expired or used.
   */
  async resetPassword(token: string, password: string, ip: string, userAgent?: string): Promise<void> {
    const now = this.deps.clock.now();
    await assertMailAllowed(this.deps.kv, 'reset', { ip }, now.getTime());
    const passwordHash = await hashPassword(password);
    const userId = await this.deps.db.transaction(async (tx) => {
      const id = await repo.consumeAccountToken(tx, { kind: 'reset', hash: sha256(token), now });
      if (id === undefined) return undefined;
      await repo.setPassword(tx, id, passwordHash);
      await repo.voidAccountTokens(tx, id, 'reset', now);
      await repo.markEmailVerified(tx, id, now);
      await this.deps.audit.recordPerTeam(
        tx,
        id,
        { userId: id, ip, userAgent },
        {
          action: 'password.reset',
          targetType: 'user',
          targetId: id,
        },
      );
      return id;
    });
    if (userId === undefined) throw resetTokenInvalid();
    await this.forgetAuthState(userId);
  }

  /**
   * Changes the password of a signed-in user who knows the current one. Every session ends (as on
   * login) and a new one starts for the caller. A wrong current password → 403
   * current_password_wrong, and counts as a failed sign-in (the login slow-down applies).
   */
  async changePassword(
    userId: number,
    currentPassword: string,
    newPassword: string,
    ip: string,
    userAgent?: string,
  ): Promise<Session> {
    const now = this.deps.clock.now();
    const row = await repo.findUserById(this.deps.db, userId);
    if (!row) throw errors.notFound('No such user.');
    const scopes = loginScopes(row.email, ip);
    await assertNotThrottled(this.deps.kv, scopes, now.getTime());
    if (!(await verifyPassword(row.password_hash, currentPassword))) {
      await recordFailure(this.deps.kv, scopes, now.getTime());
      throw errors.forbidden('current_password_wrong', 'The current password is wrong.');
    }
    await recordSuccess(this.deps.kv, scopes);
    const passwordHash = await hashPassword(newPassword);
    const tokenVersion = await this.deps.db.transaction(async (tx) => {
      const version = await repo.setPassword(tx, userId, passwordHash);
      await repo.voidAccountTokens(tx, userId, 'reset', now);
      await this.deps.audit.recordPerTeam(
        tx,
        userId,
        { userId, ip, userAgent },
        {
          action: 'password.changed',
          targetType: 'user',
          targetId: userId,
        },
      );
      return version;
    });
    await this.forgetAuthState(userId);
    return this.issue(
      { ...row, password_hash: passwordHash, token_version: tokenVersion },
      randomUUID(),
      now,
    );
  }

  async login(emailInput: string, password: string, ip: string, userAgent?: string): Promise<Session> {
    const email = normaliseEmail(emailInput);
    const now = this.deps.clock.now();
    const scopes = loginScopes(email, ip);
    await assertNotThrottled(this.deps.kv, scopes, now.getTime());
    const row = await repo.findUserByEmail(this.deps.db, email);
    const ok = await verifyPassword(row?.password_hash, password);
    if (!row || !ok) {
      await recordFailure(this.deps.kv, scopes, now.getTime());
      throw invalidCredentials();
    }
    await recordSuccess(this.deps.kv, scopes);
    return this.signIn(row, { ip, userAgent, method: 'password' }, now);
  }

  /**
   * Starts a session for a user who proved who they are some other way than a password (a
   * third-party sign-in): the same single-session rule as login (every earlier token dies).
   * `method` names the way in (e.g. "oauth:google") for the audit log.
   */
  async sessionFor(userId: number, context: SignInContext): Promise<Session> {
    const now = this.deps.clock.now();
    const row = await repo.findUserById(this.deps.db, userId);
    if (!row) throw errors.notFound('No such user.');
    return this.signIn(row, context, now);
  }

  /** One active session per account: the new token version kills every earlier token. */
  private async signIn(row: repo.UserRow, context: SignInContext, now: Date): Promise<Session> {
    const tokenVersion = await this.deps.db.transaction(async (tx) => {
      const version = await repo.bumpTokenVersion(tx, row.id);
      await this.deps.audit.recordPerTeam(
        tx,
        row.id,
        { userId: row.id, ip: context.ip, userAgent: context.userAgent },
        {
          action: 'member.signed_in',
          targetType: 'user',
          targetId: row.id,
          after: { method: context.method },
        },
      );
      return version;
    });
    await this.forgetAuthState(row.id);
    return this.issue({ ...row, token_version: tokenVersion }, randomUUID(), now);
  }

  private async issue(row: repo.UserRow, sessionId: string, now: Date): Promise<Session> {
    const refreshToken = newRefreshToken();
    await repo.insertRefreshToken(this.deps.db, {
      userId: row.id,
      familyId: sessionId,
      hash: sha256(refreshToken),
      tokenVersion: row.token_version,
      expiresAt: new Date(now.getTime() + REFRESH_TTL_SEC * 1000),
    });
    const accessToken = await this.deps.signer.sign(
      { userId: row.id, tokenVersion: row.token_version, sessionId },
      now,
    );
    return { user: await this.toUser(this.deps.db, row), accessToken, refreshToken, sessionId };
  }

  /** The session a refresh token belongs to, without using it (for the CSRF check). */
  async refreshSessionId(token: string): Promise<string | undefined> {
    return (await repo.findRefreshToken(this.deps.db, sha256(token)))?.family_id;
  }

  /**
   * Consumes a refresh token and issues a new pair in the same session. A token presented a second
   * time is a theft signal: the whole family is revoked and every token of the account dies.
   */
  async refresh(token: string): Promise<Session> {
    const now = this.deps.clock.now();
    const found = await repo.findRefreshToken(this.deps.db, sha256(token));
    if (!found || found.revoked_at || found.expires_at <= now) {
      throw errors.tokenInvalid('The refresh token is invalid, expired or revoked.');
    }
    const consumed =
      found.consumed_at === null && (await repo.consumeRefreshToken(this.deps.db, found.id, now));
    if (!consumed) {
      await repo.revokeFamily(this.deps.db, found.family_id, now);
      await repo.bumpTokenVersion(this.deps.db, found.user_id);
      await this.forgetAuthState(found.user_id);
      throw new AppError(
        401,
        'refresh_reused',
        'This refresh token was already used; the session has been revoked.',
        {
          headers: { 'WWW-Authenticate': 'Bearer error="invalid_token"' },
        },
      );
    }
    const row = await repo.findUserById(this.deps.db, found.user_id);
    if (!row || row.token_version !== found.token_version) {
      throw errors.tokenInvalid('The refresh token belongs to a session that has ended.');
    }
    return this.issue(row, found.family_id, now);
  }

  /** Deletes refresh tokens past their expiry (a daily job); returns how many. */
  purgeExpiredRefreshTokens(now: Date): Promise<number> {
    return repo.purgeDeadRefreshTokens(this.deps.db, now);
  }

  /** Deletes verification and reset tokens past their expiry (the same daily job); returns how many. */
  purgeExpiredAccountTokens(now: Date): Promise<number> {
    return repo.purgeDeadAccountTokens(this.deps.db, now);
  }

  async logout(userId: number): Promise<void> {
    await repo.bumpTokenVersion(this.deps.db, userId);
    await this.forgetAuthState(userId);
  }

  async me(userId: number): Promise<User> {
    const row = await repo.findUserProfile(this.deps.db, userId);
    if (!row) throw errors.notFound('No such user.');
    return {
      id: row.id,
      email: row.email,
      plan: row.plan,
      subscription_status: row.subscription_status,
      tracked_games: row.tracked_games,
      is_admin: row.is_admin,
      email_verified: row.email_verified_at !== null,
    };
  }

  /** The current plan, status and token version of a user, cached briefly (shared through Redis). */
  async authState(userId: number): Promise<AuthState | undefined> {
    const cached = await this.deps.kv.get(authStateKey(userId));
    if (cached) return JSON.parse(cached) as AuthState;
    const row = await repo.findAuthState(this.deps.db, userId);
    if (!row) return undefined;
    const state: AuthState = {
      userId: row.id,
      plan: row.plan,
      status: row.subscription_status,
      statusSinceMs: row.subscription_status_since.getTime(),
      isAdmin: row.is_admin,
      teamId: row.team_id,
      tokenVersion: row.token_version,
    };
    await this.deps.kv.set(authStateKey(userId), JSON.stringify(state), AUTH_CACHE_MS, { cache: true });
    return state;
  }

  private async forgetAuthState(userId: number): Promise<void> {
    await this.deps.kv.del(authStateKey(userId));
  }

  /**
   * A live access token's user and session; 401 for anything else. `plan` is the entitled plan
   * (entitledPlan: Explorer for a canceled subscription or one past_due for over 7 days).
   */
  async authenticateAccessToken(token: string): Promise<AuthState & { sessionId: string }> {
    const now = this.deps.clock.now();
    const claims = await this.deps.signer.verify(token, now);
    if (!claims) throw errors.tokenInvalid();
    const state = await this.authState(claims.userId);
    if (!state || state.tokenVersion !== claims.tokenVersion) throw errors.tokenInvalid();
    const plan = entitledPlan(state.plan, state.status, new Date(state.statusSinceMs), now);
    return { ...state, plan, sessionId: claims.sessionId };
  }

  /**
   * Changes a user's stored plan and/or status (an administrator, the CLI). The audit log of every
   * team they own records it: a team's plan is its owner's, so leaving Enterprise cancels their
   * shared teams (nothing is deleted) and coming back restores them.
   */
  async updatePlan(
    userId: number,
    change: { plan?: PlanName | undefined; status?: SubscriptionStatus | undefined },
    actor: AuditActor = { userId: null },
  ): Promise<User> {
    let status = change.status;
    if (change.plan && !status) status = change.plan === 'Explorer' ? 'none' : 'active';
    const row = await this.deps.db.transaction(async (tx) => {
      const before = await repo.findUserById(tx, userId);
      if (!before) return undefined;
      const after = await repo.updatePlan(tx, userId, { plan: change.plan, status }, this.deps.clock.now());
      if (after && (after.plan !== before.plan || after.subscription_status !== before.subscription_status)) {
        await this.deps.audit.recordPerTeam(
          tx,
          userId,
          actor,
          {
            action: 'plan.changed',
            targetType: 'user',
            targetId: userId,
            before: { plan: before.plan, subscription_status: before.subscription_status },
            after: { plan: after.plan, subscription_status: after.subscription_status },
          },
          true,
        );
      }
      return after;
    });
    if (!row) throw errors.notFound('No such user.');
    await this.forgetAuthState(userId);
    return this.toUser(this.deps.db, row);
  }

  async findByEmail(email: string): Promise<User | undefined> {
    const row = await repo.findUserByEmail(this.deps.db, normaliseEmail(email));
    return row ? this.toUser(this.deps.db, row) : undefined;
  }

  /** A page of users, newest first, for administrators; a blank `q` matches everyone. */
  async listUsers(query: AdminUsersQueryT): Promise<{ users: AdminUserT[]; total: number }> {
    const q = query.q?.trim() ? query.q.trim() : null;
    const [rows, total] = await Promise.all([
      repo.listUsersPage(this.deps.db, { q, limit: query.limit, offset: query.offset }),
      repo.countUsers(this.deps.db, q),
    ]);
    return {
      users: rows.map((r) => ({
        id: r.id,
        email: r.email,
        plan: r.plan,
        subscription_status: r.subscription_status,
        is_admin: r.is_admin,
        created_at: r.created_at.toISOString(),
      })),
      total,
    };
  }
}
