export { QuotasRepo } from './quotas.repo';
export { StorageQuotas, UPLOAD_RESERVATION_MS, type Reservation } from './quotas.service';
export { quotaRoutes } from './quotas.routes';
