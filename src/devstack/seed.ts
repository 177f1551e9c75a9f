/** Demo data for a newcomer's first `npm start`; filled in with the identity model. */
export async function seedDemoData(): Promise<void> {}
