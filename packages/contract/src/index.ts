export * from './errors';
export * from './health';
export * from './auth';
export * from './projects';
export * from './sharing';
export * from './repos';
export * from './site';
export * from './demo';
