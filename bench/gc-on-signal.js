'use strict';
// Preloaded into the service by bench/instances.js (with --expose-gc): SIGWINCH runs a full GC (not a signal Nest's shutdown hooks listen to), so heap figures count live data only.
process.on('SIGWINCH', () => global.gc());
