// Misuses the types must catch: `tsc --strict --noEmit` fails on each line
// marked with its expected error (checked by scripts/node-tests.sh).
import { Session, type CupEnvelope } from "cup-rs";

export async function wrong(session: Session): Promise<void> {
  // TS2322: the compact text is a string, not an envelope.
  const env: CupEnvelope = await session.snapshot();
  // TS2769: an unknown scope.
  await session.snapshot({ scope: "everything" });
  // TS2322: base64 text by default, not a Buffer.
  const png: Buffer = await session.screenshot();
  // TS2345: a region needs x, y, w and h.
  await session.screenshot({ x: 1, y: 2 });
  console.log(env, png);
}
