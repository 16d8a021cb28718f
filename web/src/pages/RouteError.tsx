import { isRouteErrorResponse, Link, useRouteError } from 'react-router';

/** A page that threw while rendering or failed to load its chunk (after a deploy, say). */
export function RouteError() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : 'Something went wrong.';
  return (
    <main id="main" className="page narrow">
      <div className="state state-error" role="alert">
        <h1>This page could not be shown</h1>
        <p>{message}</p>
        <p>
          <button type="button" className="button" onClick={() => window.location.reload()}>
            Reload
          </button>{' '}
          <Link to="/market">Go to the market</Link>
        </p>
      </div>
    </main>
  );
}
