/**
 * The notifications module's public face: who hears of each recorded activity (in-app and
 * batched email), their preferences, and the unsubscribe link.
 */
export { NotificationsService } from './notifications.service';
