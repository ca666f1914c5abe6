// The answer to a batch: `{"stand", "stand_quelle", "anzahl", "antworten": [{"status", "antwort"}, …]}` in the
// questions' order, each `antwort` the very bytes its GET would be answered with, put in without parsing them.
export interface Answered {
  status: number;
  /** The body as its GET would send it unencoded: an answer, or an error's `{"detail","code","stand"}`. */
  body: Buffer;
}

const CLOSE_ANSWER = Buffer.from('}');
const CLOSE_ENVELOPE = Buffer.from(']}');

export function envelope(stand: string, standQuelle: string, answers: Answered[]): Buffer {
  const parts: Buffer[] = [Buffer.from(`{"stand":${JSON.stringify(stand)},"stand_quelle":${JSON.stringify(standQuelle)},"anzahl":${answers.length},"antworten":[`)];
  answers.forEach(({ status, body }, i) => {
    parts.push(Buffer.from(`${i === 0 ? '' : ','}{"status":${status},"antwort":`), body, CLOSE_ANSWER);
  });
  parts.push(CLOSE_ENVELOPE);
  return Buffer.concat(parts);
}
