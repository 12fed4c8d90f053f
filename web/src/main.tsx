// Before anything that loads zod (see the file).
import './lib/zod-jitless';
import { mountApp } from './app/mount-app';
import { router } from './app/router';
import './index.css';

mountApp(router);
