/**
 * The audio module's public face: other modules (versions, repositories, sharing, projects)
 * import from here, never its repo. It owns how an original is taken in and stored, the
 * storage key layout, what is streamed for a quality, the waveform view, processing and the
 * clean-up of stored audio nobody uses any more.
 */
export {
  audioView,
  loudnessView,
  ownedAudioKeys,
  parseJson,
  storedDuration,
  waveformJson,
  type Renditions,
  type WaveformInfo,
} from './audio-view';
export {
  FEED_WAVEFORM_POINTS,
  LIST_PEAKS,
  feedPairs,
  fewerPeaks,
  previewOf,
  type AudioPreview,
} from './previews';
export { peaksView, readPeaksFile } from './peaks-file';
export { takeInOriginal, type IntakeDeps, type TakenIn } from './intake';
export { downloadOf, pickAudio, type Quality, type StoredAudio } from './playback';
export { processAudio, processVersion, RENDITIONS, type ProcessingDeps } from './processing';
export { AudioService } from './audio.service';
export { cleanupBatchJob, losslessBackfillJob, processBounceJob, processVersionJob } from './jobs';
export type { AudioTable } from './audio.repo';
export { originalHashOf, storageKeys } from './storage-keys';
export {
  CLEANUP_BATCH_SIZE,
  countOriginalRefs,
  deleteOriginalIfUnused,
  drainCleanup,
  ensureOriginal,
  lockOriginal,
  queueCleanup,
  queueVersionsCleanup,
  recordOriginalRef,
  releaseOriginalRef,
  sweepStaleOriginalRefs,
  type CleanupKeys,
} from './stored-audio';
