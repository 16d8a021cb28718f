/**
 * The web app: TanStack Query for server state, React Router with one lazy chunk per page.
 */
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { ApiError } from './api/client';
import { ME_KEY } from './lib/session';
import { bindTeamSelection } from './lib/team';
import { routes } from './routes';
import './styles.css';

const client: QueryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      // A 4xx will not change by asking again; a network blip or a 503 may.
      // 503 "still being collected" (a fresh install's first minute) is worth waiting for.
      retry: (count, error) => {
        if (error instanceof ApiError && error.status === 503) return count < 8;
        return !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 2;
      },
      retryDelay: (count, error) =>
        error instanceof ApiError && error.status === 503 ? 8_000 : Math.min(1000 * 2 ** count, 8_000),
    },
  },
  // A 401 that survived the refresh means the session is gone: forget the user (pages that need
  // one then send them to sign in, back where they were after).
  queryCache: new QueryCache({
    onError: (error) => {
      if (error instanceof ApiError && error.status === 401) client.setQueryData(ME_KEY, null);
    },
  }),
  mutationCache: new MutationCache({
    onError: (error) => {
      if (error instanceof ApiError && error.status === 401) client.setQueryData(ME_KEY, null);
    },
  }),
});

// The team switcher's choice follows the signed-in user; choosing a team reloads the team's data.
bindTeamSelection(client);

const router = createBrowserRouter(routes);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
