// What other workspace packages (the platform runner, the operator CLI, end-to-end tests) may use of this service.
export { startDashboard } from './dashboard-server.ts';
export type { RunningDashboard } from './dashboard-server.ts';
export { loadDashboardConfig } from './config.ts';
export type { DashboardConfig } from './config.ts';
export { DASHBOARD_MIGRATIONS_DIR } from './migrations.ts';
export { ACTION_ROUTES } from './api/http/action-routes.ts';
export { may, ROLES, type Role } from './domain/roles.ts';
