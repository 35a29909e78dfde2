/** A manifest that cannot be used; the message names the file and the JSON pointer of the fault. */
export class ManifestError extends Error {
  override readonly name = 'ManifestError';
  constructor(
    readonly file: string,
    readonly pointer: string,
    problem: string,
  ) {
    super(`${file}: ${pointer || '/'} ${problem}`);
  }
}
