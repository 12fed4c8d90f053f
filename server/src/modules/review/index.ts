/** The review surface's server side: review statuses with their history, and comparing two versions. */
export { ReviewRepo } from './review.repo';
export { ReviewService } from './review.service';
export { linkReviewRoutes, memberReviewRoutes } from './review.routes';
