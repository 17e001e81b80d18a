// Preloaded by bun test (bunfig.toml). Tests read time from a pinned Clock, never from the wall;
// the time zone is set so that any accidental local-time formatting shows up as Oslo time.
process.env.TZ = 'Europe/Oslo'
