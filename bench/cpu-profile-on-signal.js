'use strict';
// Preloaded by bench/profile-launch.js into the process it profiles: SIGTTIN starts V8's sampling profiler,
// SIGTTOU stops it and writes the profile to $PROFILE_FILE (signals neither Nest nor Fastify listen to).
const fs = require('node:fs');
const inspector = require('node:inspector');

const session = new inspector.Session();
session.connect();
session.post('Profiler.enable');
session.post('Profiler.setSamplingInterval', { interval: Number(process.env.PROFILE_INTERVAL_US || 200) });
process.on('SIGTTIN', () => session.post('Profiler.start'));
process.on('SIGTTOU', () =>
  session.post('Profiler.stop', (error, result) => {
    if (!error) fs.writeFileSync(process.env.PROFILE_FILE, JSON.stringify(result.profile));
  }),
);
