/** Why a transcription failed, in words for the user (never the key). */
export class TranscriptionError extends Error {}
