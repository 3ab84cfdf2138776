// Sandbar is a background process that relays large frames (tool calls of megabytes) and then idles for
// hours. V8's default heap growth keeps hundreds of megabytes of garbage resident after such a burst;
// optimize-for-size collects it early instead (measured: a flood of 40 × 4 MiB proxied calls grew the
// host by ~130 MiB with the default and stayed within the 100 MiB bound with this). Imported first by each
// entry point, before anything allocates much.
import { setFlagsFromString } from 'node:v8';

setFlagsFromString('--optimize-for-size');
