#!/usr/bin/env node
// the CLI as bundled by apps/hermes/bundle.mjs (part of `npm run build`)
import '../dist/bundle/main.js';
