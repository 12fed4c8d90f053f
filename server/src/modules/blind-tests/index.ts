/**
 * The blind-tests module's public face: blind tests made by whoever may share a project, and
 * what their links' listeners may do (listen by letter, vote, run ABX trials).
 */
export { BlindTestsService, type BlindTestsDeps } from './blind-tests.service';
export { BlindListening, type OpenedBlindTest } from './blind-listening';
export { BlindTestsRepo } from './blind-tests.repo';
export { blindTestRoutes, publicBlindTestRoutes } from './blind-tests.routes';
