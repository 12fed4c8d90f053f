/**
 * The alignment module's face: what other modules (and the bench) may use. It lines versions up
 * in time (features, DTW, a piecewise-linear map), keeps the maps, and carries comments through
 * them.
 */
export { alignFeatures, mapTime, type Alignment, type AlignmentSegment } from './align';
export { ALIGN_SAMPLE_RATE, featuresOf, type Features } from './features';
export { AlignmentRepo } from './alignment.repo';
export { AlignmentService, type Carrier, type CarriedTimes } from './alignment.service';
export { alignmentRoutes } from './alignment.routes';
export { alignVersionsJob } from './jobs';
export { inverted, mapTimes } from './time-map';
