// What other workspace packages (the platform runner, end-to-end tests) may use of this service.
export { startNotificationsService } from './notifications-service.ts';
export type { RunningNotificationsService, NotificationsOptions } from './notifications-service.ts';
export { loadNotificationsConfig } from './config.ts';
export type { NotificationsConfig } from './config.ts';
export { NOTIFICATIONS_MIGRATIONS_DIR } from './migrations.ts';
