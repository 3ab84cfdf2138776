#!/usr/bin/env node
// The `sandbar` command's entry: as little as possible is loaded before V8's compile cache is on
// (compile-cache.ts), then the command itself (cli-main.ts) is, compiled from the cache when it can be.
import './lean-heap.js';
import { enableCompileCache } from './compile-cache.js';

enableCompileCache();
await import('./cli-main.js');
