// Before anything that loads zod (see the file).
import './lib/zod-jitless';
import { mountApp } from './app/mount-app';
import { shareRouter } from './app/share-router';
import './index.css';

/**
 * The share entry (share.html): what the server sends for `/share/:hash`, so a listener's first
 * visit loads the share page, the player, the waveform and the comments, not the whole app.
 */
mountApp(shareRouter);
