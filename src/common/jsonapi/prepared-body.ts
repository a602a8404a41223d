/** A rendered answer: the Express adapter sends it as it is (see ResponseCache). */
export class PreparedBody {
  constructor(
    readonly contentType: string,
    readonly json: string,
  ) {}
}
