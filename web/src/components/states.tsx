/** Loading, empty and error states: every page shows one of these, never a blank area. */
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ApiError } from '../api/client';

export function Loading({ label = 'Loading' }: { label?: string }) {
  return (
    <div className="state state-loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span>{label}…</span>
    </div>
  );
}

export function Empty({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="state state-empty">
      <p className="state-title">{title}</p>
      {children ? <div className="state-body">{children}</div> : null}
    </div>
  );
}

/** "<feature> is part of the <plan> plan", or `title` when the sentence needs other words. */
export function UpgradeCard({
  plan,
  feature,
  title,
  children,
}: {
  plan: string;
  feature: string;
  title?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <section className="upgrade-card" aria-label={`${feature} needs ${plan}`}>
      <p className="upgrade-title">
        {title ?? (
          <>
            {feature} is part of the <strong>{plan}</strong> plan
          </>
        )}
      </p>
      {children ? <div className="state-body">{children}</div> : null}
      <Link className="button primary" to="/account#plans">
        See plans and upgrade
      </Link>
    </section>
  );
}

/** An error as the API explained it: its `detail`, the code small; a plan gate as an upgrade card. */
export function ErrorState({ error, retry }: { error: unknown; retry?: () => void }) {
  if (error instanceof ApiError && error.code === 'plan_upgrade_required' && error.requiredPlan) {
    return (
      <UpgradeCard plan={error.requiredPlan} feature="This view">
        {error.detail}
      </UpgradeCard>
    );
  }
  const detail =
    error instanceof ApiError ? error.detail : error instanceof Error ? error.message : String(error);
  const code = error instanceof ApiError ? error.code : undefined;
  return (
    <div className="state state-error" role="alert">
      <p className="state-title">{detail}</p>
      {code ? <p className="muted small">code: {code}</p> : null}
      {retry ? (
        <button type="button" className="button" onClick={retry}>
          Try again
        </button>
      ) : null}
    </div>
  );
}

/** Renders a query's loading or error state, or its data through `children`. */
export function QueryView<T>({
  query,
  label,
  empty,
  children,
}: {
  query: { isPending: boolean; error: unknown; data: T | undefined; refetch: () => unknown };
  label?: string;
  /** When it returns a node, that node is the empty state. */
  empty?: (data: T) => ReactNode | null;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <Loading {...(label ? { label } : {})} />;
  if (query.error) return <ErrorState error={query.error} retry={() => void query.refetch()} />;
  const data = query.data as T;
  const emptyNode = empty?.(data);
  if (emptyNode) return <>{emptyNode}</>;
  return <>{children(data)}</>;
}

/** What a page shows an anonymous visitor: why to sign in, and a button that comes back to `next`. */
export function SignInNotice({ title, next }: { title: string; next: string }) {
  return (
    <div className="notice stack">
      <p className="state-title">{title}</p>
      <p className="row">
        <Link className="button primary" to={`/signin?next=${encodeURIComponent(next)}`}>
          Sign in
        </Link>
      </p>
    </div>
  );
}
