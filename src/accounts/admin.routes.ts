import type { App } from '../http/index.js';
import { errorResponses } from '../http/schemas.js';
import { AdminUser, AdminUsersPage, AdminUsersQuery } from './accounts.schemas.js';
import type { AccountsService } from './accounts.service.js';

export function registerAdminRoutes(app: App, accounts: AccountsService): void {
  app.get(
    '/api/admin/users',
    {
      config: { access: { auth: 'user', admin: true } },
      schema: {
        tags: ['admin'],
        summary: 'Every user, newest first (administrators)',
        description:
          'A page of users with their stored plan and subscription status (never a password hash). `q` keeps ' +
          'users whose e-mail contains it, in any case; `total` counts every match across pages.',
        querystring: AdminUsersQuery,
        response: { 200: AdminUsersPage, ...errorResponses(422) },
      },
    },
    async (request) => accounts.listUsers(request.query),
  );
}

export const adminSchemas = [AdminUser];
