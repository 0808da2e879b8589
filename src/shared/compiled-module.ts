/**
 * Where the entry module of a worker thread or child process is: beside the module that starts it once
 * compiled (dist/), and its compiled copy in dist/ when that module runs from src/ (the tests, which compile
 * dist/ first: test/global-setup.ts), since a worker cannot load TypeScript. No `node:` imports.
 * Example: ('file:///p/src/cli/build-host.ts', 'build-worker.js') -> file:///p/dist/cli/build-worker.js;
 * ('file:///p/dist/cli/build-host.js', 'build-worker.js') -> file:///p/dist/cli/build-worker.js.
 */
export function compiledModuleUrl(from: string, file: string): URL {
  // the last `/src/` of the path is the engine's (a folder above it may be called src too)
  const base = from.endsWith('.ts') ? from.replace(/^(.*)\/src\/(.*\/)?[^/]*$/, '$1/dist/$2') : from
  return new URL(file, base)
}
