/**
 * Third-party sign-in: starting a flow (state, PKCE, nonce in a sealed cookie), finishing it (the
 * state checked and used once, the code exchanged, the profile resolved to an account) and the
 * linked identities of an account.
 *
 * Who a callback signs in, in order:
 * 1. the identity (provider, subject) is linked: its user;
 * 2. the provider gave an unverified e-mail address: refused (provider_email_unverified), since
 *    it can neither match an account nor safely name a new one;
 * 3. a verified address that an account has: that account if the account verified it too
 *    (the identity is linked), else account_link_required (nobody proved owning that account);
 * 4. otherwise a new account without a password: the provider's verified address, or, when it
 *    gives none (Roblox, X), `<provider>-<subject>@users.noreply.invalid` (never deliverable:
 *    .invalid is reserved, and the account counts as unverified so no mail goes there).
 * In link mode the identity goes to the signed-in user who started the flow, whatever the e-mail.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import * as client from 'openid-client';
import type { Clock } from '../../clock.js';
import type { OAuthProviderId } from '../../config.js';
import type { Db } from '../../db/index.js';
import { AppError } from '../../errors.js';
import type { Kv } from '../../kv/index.js';
import type { AccountsService, Session } from '../accounts.service.js';
import { sha256 } from '../tokens.js';
import { FLOW_TTL_MS, type FlowSealer, type FlowState } from './flow-cookie.js';
import { oauthErrors } from './oauth.errors.js';
import * as repo from './oauth.repo.js';
import type { IdentityT, ProviderInfoT } from './oauth.schemas.js';
import { type OAuthProvider, PROVIDER_NAMES, type ProviderProfile } from './providers.js';

export interface OAuthDeps {
  db: Db;
  kv: Kv;
  clock: Clock;
  accounts: AccountsService;
  providers: OAuthProvider[];
  sealer: FlowSealer;
  /** PUBLIC_URL: redirect URIs are `${publicUrl}/api/auth/oauth/{provider}/callback`. */
  publicUrl: string;
  log?: FastifyBaseLogger | undefined;
}

export type Finished =
  | { kind: 'session'; session: Session; returnTo: string }
  | { kind: 'linked'; returnTo: string };

const UNIQUE_VIOLATION = '23505';

function isUniqueViolation(err: unknown): boolean {
  return (err as { code?: unknown }).code === UNIQUE_VIOLATION;
}

/** The provider's error parameter as a code safe to show: [a-z_] only. */
function safeErrorCode(error: string): string {
  return /^[a-z_]{1,64}$/.test(error) ? error : 'unknown_error';
}

export class OAuthService {
  private readonly byId: Map<string, OAuthProvider>;

  constructor(private readonly deps: OAuthDeps) {
    this.byId = new Map(deps.providers.map((p) => [p.id, p]));
  }

  /** The enabled providers, for the sign-in page. */
  enabled(): ProviderInfoT[] {
    return this.deps.providers.map((p) => ({ id: p.id, name: p.name }));
  }

  provider(id: string): OAuthProvider {
    const p = this.byId.get(id);
    if (!p) throw oauthErrors.providerNotEnabled();
    return p;
  }

  redirectUri(id: OAuthProviderId): string {
    return `${this.deps.publicUrl}/api/auth/oauth/${id}/callback`;
  }

  /** A new flow: where to send the browser and the sealed cookie that remembers it. */
  async start(
    providerId: string,
    options: { returnTo: string; mode: 'signin' | 'link'; userId?: number },
  ): Promise<{ url: string; cookie: string }> {
    const provider = this.provider(providerId);
    const codeVerifier = client.randomPKCECodeVerifier();
    const flow: FlowState = {
      provider: provider.id,
      state: client.randomState(),
      codeVerifier,
      nonce: provider.usesNonce ? client.randomNonce() : undefined,
      returnTo: options.returnTo,
      mode: options.mode,
      userId: options.userId,
      expiresAt: this.deps.clock.now().getTime() + FLOW_TTL_MS,
    };
    const url = await provider.authorizationUrl({
      redirectUri: this.redirectUri(provider.id),
      state: flow.state,
      codeChallenge: await client.calculatePKCECodeChallenge(codeVerifier),
      nonce: flow.nonce,
    });
    return { url: url.href, cookie: this.deps.sealer.seal(flow) };
  }

  /** The flow the cookie holds, when it is sealed by us, unexpired and for this provider. */
  openFlow(providerId: string, cookie: string | undefined): FlowState | undefined {
    const flow = this.deps.sealer.open(cookie, this.deps.clock.now().getTime());
    return flow && flow.provider === providerId ? flow : undefined;
  }

  /**
   * Finishes a flow from the provider's redirect (`query`: its raw query string). `currentUserId`
   * is who the request's session cookie names (link mode needs the user who started it).
   */
  async finish(
    providerId: string,
    flow: FlowState | undefined,
    query: string,
    context: { ip: string; userAgent: string | undefined; currentUserId: number | undefined },
  ): Promise<Finished> {
    const provider = this.provider(providerId);
    const params = new URLSearchParams(query);
    const state = params.get('state');
    if (!flow || !state || state !== flow.state) throw oauthErrors.stateInvalid();
    // Single use, across processes when the store is Redis: a replayed callback stops here.
    const uses = await this.deps.kv.incr(`oauth:state:${sha256(state)}`, FLOW_TTL_MS);
    if (uses !== 1) throw oauthErrors.stateInvalid();
    const error = params.get('error');
    if (error !== null) throw oauthErrors.providerError(provider.name, safeErrorCode(error));
    if (flow.mode === 'link' && (flow.userId === undefined || flow.userId !== context.currentUserId)) {
      throw oauthErrors.linkSessionLost();
    }
    const redirectUri = this.redirectUri(provider.id);
    const profile = await provider.profile(new URL(`${redirectUri}?${query}`), {
      redirectUri,
      state: flow.state,
      codeVerifier: flow.codeVerifier,
      nonce: flow.nonce,
    });
    if (flow.mode === 'link' && flow.userId !== undefined) {
      await this.link(provider, flow.userId, profile);
      return { kind: 'linked', returnTo: flow.returnTo };
    }
    const userId = await this.resolveUser(provider, profile);
    const session = await this.deps.accounts.sessionFor(userId, {
      ip: context.ip,
      userAgent: context.userAgent,
      method: `oauth:${provider.id}`,
    });
    return { kind: 'session', session, returnTo: flow.returnTo };
  }

  private facts(profile: ProviderProfile): repo.IdentityFacts {
    return {
      email: profile.email ?? null,
      emailVerified: profile.emailVerified,
      displayName: profile.displayName ?? null,
      now: this.deps.clock.now(),
    };
  }

  /** The user a sign-in resolves to (see the rules at the top); creates one when none fits. */
  private async resolveUser(
    provider: OAuthProvider,
    profile: ProviderProfile,
    retried = false,
  ): Promise<number> {
    const { db } = this.deps;
    const known = await repo.findIdentity(db, provider.id, profile.subject);
    if (known) {
      await repo.touchIdentity(db, known.id, this.facts(profile));
      return known.user_id;
    }
    if (profile.email !== undefined && !profile.emailVerified)
      throw oauthErrors.emailUnverified(provider.name);
    if (profile.email !== undefined) {
      const existing = await this.deps.accounts.findByEmail(profile.email);
      if (existing) {
        if (!existing.email_verified) throw oauthErrors.linkRequired(provider.name);
        await this.insertIdentity(provider, existing.id, profile);
        return existing.id;
      }
    }
    const email = profile.email ?? placeholderEmail(provider.id, profile.subject, retried);
    let userId: number;
    try {
      const user = await this.deps.accounts.createUser({
        email,
        password: null,
        emailVerified: profile.email !== undefined,
      });
      userId = user.id;
    } catch (err) {
      // Another sign-in with the same identity (or address) made the account first, or someone
      // registered the placeholder address: look again once (a random placeholder the second time).
      if (!retried && err instanceof AppError && err.code === 'email_taken') {
        return this.resolveUser(provider, profile, true);
      }
      throw err;
    }
    await this.insertIdentity(provider, userId, profile);
    return userId;
  }

  private async insertIdentity(
    provider: OAuthProvider,
    userId: number,
    profile: ProviderProfile,
  ): Promise<void> {
    try {
      await repo.insertIdentity(this.deps.db, {
        ...this.facts(profile),
        userId,
        provider: provider.id,
        subject: profile.subject,
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw oauthErrors.alreadyLinked(provider.name);
      throw err;
    }
  }

  /** Link mode: the identity joins the signed-in user (again: a no-op besides last use). */
  private async link(provider: OAuthProvider, userId: number, profile: ProviderProfile): Promise<void> {
    const known = await repo.findIdentity(this.deps.db, provider.id, profile.subject);
    if (known && known.user_id !== userId) throw oauthErrors.linkedElsewhere(provider.name);
    if (known) {
      await repo.touchIdentity(this.deps.db, known.id, this.facts(profile));
      return;
    }
    if (await repo.findUserIdentity(this.deps.db, userId, provider.id)) {
      throw oauthErrors.alreadyLinked(provider.name);
    }
    try {
      await this.insertIdentity(provider, userId, profile);
    } catch (err) {
      // The same identity linked elsewhere at the same moment.
      if (err instanceof AppError && err.code === 'provider_already_linked') {
        const now = await repo.findIdentity(this.deps.db, provider.id, profile.subject);
        if (now && now.user_id !== userId) throw oauthErrors.linkedElsewhere(provider.name);
      }
      throw err;
    }
  }

  async identities(userId: number): Promise<{ identities: IdentityT[]; has_password: boolean }> {
    const [rows, hasPassword] = await Promise.all([
      repo.listIdentities(this.deps.db, userId),
      repo.hasPassword(this.deps.db, userId),
    ]);
    return {
      identities: rows.map((r) => ({
        provider: r.provider,
        name: PROVIDER_NAMES[r.provider],
        subject: r.subject,
        display_name: r.display_name,
        email: r.email,
        created_at: r.created_at.toISOString(),
        last_used_at: r.last_used_at.toISOString(),
      })),
      has_password: hasPassword,
    };
  }

  /**
   * Removes the user's identity at `providerId` (known provider, enabled or not: a provider
   * switched off must still be removable), unless it is the account's last way to sign in.
   */
  async unlink(userId: number, providerId: string): Promise<void> {
    const id = Object.keys(PROVIDER_NAMES).find((p): p is OAuthProviderId => p === providerId);
    if (!id) throw oauthErrors.providerNotEnabled();
    await this.deps.db.transaction(async (tx) => {
      const methods = await repo.lockSignInMethods(tx, userId);
      if (!methods) throw oauthErrors.notLinked(PROVIDER_NAMES[id]);
      if (!(await repo.findUserIdentity(tx, userId, id))) throw oauthErrors.notLinked(PROVIDER_NAMES[id]);
      if (!methods.has_password && methods.identities <= 1) throw oauthErrors.lastSignInMethod();
      await repo.deleteIdentity(tx, userId, id);
    });
  }
}

/** The address of an account whose provider shares none; a random one if that is taken. */
export function placeholderEmail(provider: OAuthProviderId, subject: string, random: boolean): string {
  const local = `${provider}-${subject
    .toLowerCase()
    .replace(/[^a-z0-9._-]/g, '_')
    .slice(0, 40)}`;
  return `${local}${random ? `-${randomBytes(4).toString('hex')}` : ''}@users.noreply.invalid`;
}
