/** Imports TypeScript or JavaScript files without a build step (jiti), with module aliases. */
export type ModuleImporter = (file: string) => Promise<unknown>;

/** An importer for plugin and hook code; `aliases` map bare specifiers (e.g. `@hermes/plugin-sdk`) to files. */
export async function createModuleImporter(aliases: Record<string, string> = {}): Promise<ModuleImporter> {
  const { createJiti } = await import('jiti');
  const jiti = createJiti(import.meta.url, { alias: aliases });
  return (file) => jiti.import(file);
}
