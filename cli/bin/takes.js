#!/usr/bin/env node
// @ts-check
import { main } from '../src/main.js';

process.exitCode = await main({
  argv: process.argv.slice(2),
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
});
