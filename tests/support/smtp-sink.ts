import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer, type SMTPServerAddress } from 'smtp-server';

/** One mail as the SMTP server received it: the envelope, the raw bytes and mailparser's reading. */
export interface ReceivedMail {
  mailFrom: string;
  rcptTo: string[];
  raw: string;
  parsed: ParsedMail;
}

export interface SmtpSink {
  port: number;
  /** `smtp://[user:pass@]127.0.0.1:<port>` */
  url: string;
  mails: ReceivedMail[];
  /** While failing, every connection is turned away with `421` (a temporary failure). */
  setFailing(failing: boolean): void;
  close(): Promise<void>;
}

/**
 * A real SMTP server (smtp-server) on loopback that keeps what it receives. Plain SMTP without
 * STARTTLS; with `auth`, only those credentials may send.
 */
export async function startSmtpSink(
  options: { port?: number; auth?: { user: string; pass: string } } = {},
): Promise<SmtpSink> {
  const mails: ReceivedMail[] = [];
  let failing = false;
  const address = (value: SMTPServerAddress | false) => (value ? value.address : '');
  const server = new SMTPServer({
    secure: false,
    disabledCommands: options.auth ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    authOptional: !options.auth,
    allowInsecureAuth: true,
    logger: false,
    // No reverse DNS lookup of 127.0.0.1 on every connection.
    disableReverseLookup: true,
    onConnect(_session, callback) {
      if (!failing) return callback();
      const error = Object.assign(new Error('Service not available, try again later'), { responseCode: 421 });
      callback(error);
    },
    onAuth(auth, _session, callback) {
      if (options.auth && auth.username === options.auth.user && auth.password === options.auth.pass) {
        return callback(null, { user: auth.username });
      }
      callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        simpleParser(raw).then(
          (parsed) => {
            mails.push({
              mailFrom: address(session.envelope.mailFrom),
              rcptTo: session.envelope.rcptTo.map((rcpt) => rcpt.address),
              raw,
              parsed,
            });
            callback();
          },
          (error: Error) => callback(error),
        );
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  const credentials = options.auth
    ? `${encodeURIComponent(options.auth.user)}:${encodeURIComponent(options.auth.pass)}@`
    : '';
  return {
    port,
    url: `smtp://${credentials}127.0.0.1:${port}`,
    mails,
    setFailing(value) {
      failing = value;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
