/**
 * Not worth another attempt (a sample that is not good enough, audio that cannot be read, an engine
 * missing, a configured voice server refusing the request). Its own module so the remote clients
 * (remote.ts) can throw it without importing the jobs that use them.
 */
export class PermanentVoiceError extends Error {
  constructor(
    /** a SampleProblem or VoiceFailure (contracts/voice-constants.ts) */
    readonly reason: string,
    message: string,
  ) {
    super(message);
    this.name = "PermanentVoiceError";
  }
}
