// Set up before every test file that reads the built trees (vitest.config.ts, setupFiles). Vitest runs a setup file
// again for each test file even where files share a worker's modules, so its hooks belong to each file, unlike the
// hooks of a module the file imports, which a shared worker would register for its first file only. Registered
// before the file's own hooks: after-hooks run in reverse order, so these run once the file's own have.
import { afterAll } from 'vitest';
import { removeScratchDirs } from './proxy.ts';

afterAll(removeScratchDirs);
