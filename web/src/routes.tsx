/**
 * Every page, each its own chunk (a module exporting `Component`). Pages that need an account are
 * wrapped in RequireAuth by their module.
 */
import { Navigate, type RouteObject } from 'react-router';
import { Layout } from './components/Layout';
import { RouteError } from './pages/RouteError';

export const routes: RouteObject[] = [
  {
    path: '/',
    element: <Layout />,
    errorElement: <RouteError />,
    children: [
      { index: true, element: <Navigate to="/market" replace /> },
      { path: 'signin', lazy: () => import('./pages/auth/SignIn') },
      { path: 'register', lazy: () => import('./pages/auth/Register') },
      { path: 'forgot-password', lazy: () => import('./pages/auth/ForgotPassword') },
      { path: 'reset-password', lazy: () => import('./pages/auth/ResetPassword') },
      { path: 'verify-email', lazy: () => import('./pages/auth/VerifyEmail') },
      { path: 'account', lazy: () => import('./pages/account/Account') },
      { path: 'market', lazy: () => import('./pages/market/Market') },
      { path: 'genres', lazy: () => import('./pages/genres/Genres') },
      { path: 'breakout', lazy: () => import('./pages/breakout/Breakout') },
      { path: 'updates', lazy: () => import('./pages/updates/Updates') },
      { path: 'updates/:placeId', lazy: () => import('./pages/updates/Updates') },
      { path: 'ugc', lazy: () => import('./pages/ugc/Ugc') },
      { path: 'ugc/items/:id', lazy: () => import('./pages/ugc/UgcItem') },
      { path: 'keywords', lazy: () => import('./pages/keywords/Keywords') },
      { path: 'intelligence', lazy: () => import('./pages/intelligence/Intelligence') },
      { path: 'intelligence/creators/:creatorId', lazy: () => import('./pages/intelligence/Intelligence') },
      { path: 'keywords/:keyword', lazy: () => import('./pages/keywords/Keywords') },
      { path: 'intelligence/clones', lazy: () => import('./pages/intelligence/Clones') },
      { path: 'intelligence/patterns', lazy: () => import('./pages/intelligence/SuccessPatterns') },
      { path: 'games/:placeId', lazy: () => import('./pages/game/Game') },
      { path: 'tracking', lazy: () => import('./pages/tracking/Tracking') },
      { path: 'dev-lens', lazy: () => import('./pages/devlens/DevLens') },
      { path: 'sdk', lazy: () => import('./pages/sdk/SdkHome') },
      { path: 'sdk/:gameId/:view?', lazy: () => import('./pages/sdk/SdkGame') },
      { path: 'team', lazy: () => import('./pages/team/Team') },
      { path: 'team/accept', lazy: () => import('./pages/team/AcceptInvite') },
      { path: 'team/audit', lazy: () => import('./pages/team/Audit') },
      { path: 'admin', lazy: () => import('./pages/admin/Admin') },
      { path: '*', lazy: () => import('./pages/NotFound') },
    ],
  },
];
