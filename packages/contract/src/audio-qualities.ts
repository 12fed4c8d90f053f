/**
 * What a listener may ask to stream: the stored original, its FLAC ('Lossless', made for
 * lossless originals: the same samples at about half a WAV's bytes), or an MP3 rendition (High
 * 320k, Standard 128k). Zod-free, for the web app.
 */
export const AUDIO_QUALITIES = ['original', 'lossless', 'high', 'standard'] as const;
export type AudioQualityName = (typeof AUDIO_QUALITIES)[number];
