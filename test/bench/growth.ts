export async function runGrowth(): Promise<void> {}
