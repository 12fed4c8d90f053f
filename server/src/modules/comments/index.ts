/**
 * The comments module's public face: timestamped comments on versions, by members and by link
 * visitors (a collection's link takes a visitor's comment the same way).
 */
export { CommentsService, type VisitorCommentInput } from './comments.service';
export { visitorCommentInput } from './visitor-comment';
export { MarkersService, markersOf, type MarkerFile } from './markers.service';
export { markerRoutes } from './markers.routes';
