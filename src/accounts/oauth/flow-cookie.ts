/**
 * The state of one sign-in in flight (state, PKCE verifier, nonce, where to go after, sign-in or
 * link), kept in the browser that started it: an HttpOnly cookie sealed with AES-256-GCM under a
 * key derived from the server secret, so it can be neither read nor forged, and every process
 * sharing the secret can finish a flow another one started. It expires after FLOW_TTL_MS by its
 * own timestamp (the injected clock), whatever the cookie's Max-Age.
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { OAUTH_PROVIDER_IDS, type OAuthProviderId } from '../../config.js';

export const FLOW_COOKIE = 'svc_oauth';
/** Only the start and callback routes (and link) read it. */
export const FLOW_COOKIE_PATH = '/api/auth/oauth';
export const FLOW_TTL_MS = 10 * 60_000;

export interface FlowState {
  provider: OAuthProviderId;
  state: string;
  codeVerifier: string;
  /** OpenID Connect providers only. */
  nonce?: string | undefined;
  returnTo: string;
  mode: 'signin' | 'link';
  /** Link mode: the signed-in user who asked. */
  userId?: number | undefined;
  /** Epoch ms after which the flow is refused. */
  expiresAt: number;
}

const IV_BYTES = 12;
const TAG_BYTES = 16;

export class FlowSealer {
  private readonly key: Buffer;

  constructor(serverSecret: string) {
    // A key of its own, so a sealed flow can never pass for a JWT, a CSRF token or the reverse.
    this.key = createHmac('sha256', serverSecret).update('svc oauth flow v1').digest();
  }

  seal(flow: FlowState): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(JSON.stringify(flow), 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
  }

  /** The flow, or undefined for anything forged, damaged, expired or of another shape. */
  open(sealed: string | undefined, nowMs: number): FlowState | undefined {
    if (!sealed || sealed.length > 4096) return undefined;
    const raw = Buffer.from(sealed, 'base64url');
    if (raw.length <= IV_BYTES + TAG_BYTES) return undefined;
    let parsed: unknown;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, IV_BYTES));
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      const text = Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
      parsed = JSON.parse(text.toString('utf8'));
    } catch {
      return undefined;
    }
    const flow = asFlow(parsed);
    return flow && flow.expiresAt > nowMs ? flow : undefined;
  }
}

function asFlow(v: unknown): FlowState | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const f = v as Record<string, unknown>;
  const provider = OAUTH_PROVIDER_IDS.find((p) => p === f.provider);
  if (
    !provider ||
    typeof f.state !== 'string' ||
    typeof f.codeVerifier !== 'string' ||
    (f.nonce !== undefined && typeof f.nonce !== 'string') ||
    typeof f.returnTo !== 'string' ||
    (f.mode !== 'signin' && f.mode !== 'link') ||
    (f.userId !== undefined && typeof f.userId !== 'number') ||
    typeof f.expiresAt !== 'number'
  ) {
    return undefined;
  }
  return {
    provider,
    state: f.state,
    codeVerifier: f.codeVerifier,
    nonce: f.nonce as string | undefined,
    returnTo: f.returnTo,
    mode: f.mode,
    userId: f.userId as number | undefined,
    expiresAt: f.expiresAt,
  };
}
