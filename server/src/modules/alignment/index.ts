// The alignment module's face: what other modules (and the bench) may use.
export { alignFeatures, mapTime, type Alignment, type AlignmentSegment } from './align';
export { ALIGN_SAMPLE_RATE, featuresOf, type Features } from './features';
