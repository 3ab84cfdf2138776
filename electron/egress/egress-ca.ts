// The per-instance CA the egress proxy uses to terminate TLS for hosts that have a secret (so it can add the
// secret's header), and the leaf certificates it signs per host. Made with @peculiar/x509 over WebCrypto
// (ECDSA P-256). The private key stays in this process and in `egress-ca-key.pem` (owner-only, 0600) in
// Sandbar's private home; the sandbox only ever gets the certificate, to trust it. Leaves live in memory.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { webcrypto } from 'node:crypto';
import path from 'node:path';
import tls from 'node:tls';
import * as x509 from '@peculiar/x509';
import { canonicalAddress } from '../../shared/egress.js';

const ALG = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const CERT_FILE = 'egress-ca.pem';
const KEY_FILE = 'egress-ca-key.pem';
/** Leaf contexts kept; the oldest go first (a flood of names cannot grow memory). */
const MAX_LEAVES = 256;
const DAY_MS = 24 * 3600 * 1000;

type CryptoKey = webcrypto.CryptoKey;
type CryptoKeyPair = webcrypto.CryptoKeyPair;

// Node's WebCrypto is the DOM `Crypto` the library types name (absent from the Node-only build's libs).
x509.cryptoProvider.set(webcrypto as never);

const pem = (label: string, der: ArrayBuffer) =>
  `-----BEGIN ${label}-----\n${Buffer.from(der).toString('base64').replace(/.{64}/g, '$&\n').replace(/\n?$/, '\n')}-----END ${label}-----\n`;

function derOf(text: string): ArrayBuffer {
  const bytes = Buffer.from(text.replace(/-----[^-]+-----|\s/g, ''), 'base64');
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
}

export class EgressCa {
  readonly #leaves = new Map<string, Promise<tls.SecureContext>>();

  private constructor(
    readonly certificate: x509.X509Certificate,
    private readonly privateKey: CryptoKey,
    /** The CA certificate in PEM: what the sandbox's bundle adds. */
    readonly certPem: string,
  ) {}

  /** The instance's CA from `dir`, made there (key 0600) the first time. */
  static async loadOrCreate(dir: string): Promise<EgressCa> {
    const certPath = path.join(dir, CERT_FILE);
    const keyPath = path.join(dir, KEY_FILE);
    try {
      const certPem = readFileSync(certPath, 'utf8');
      const key = await webcrypto.subtle.importKey('pkcs8', derOf(readFileSync(keyPath, 'utf8')), ALG, false, ['sign']);
      return new EgressCa(new x509.X509Certificate(certPem), key as CryptoKey, certPem);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    const keys = (await webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify'])) as CryptoKeyPair;
    const now = Date.now();
    const certificate = await x509.X509CertificateGenerator.createSelfSigned({
      name: 'CN=Sandbar egress CA (this computer only), O=Sandbar',
      notBefore: new Date(now - DAY_MS),
      notAfter: new Date(now + 3650 * DAY_MS),
      signingAlgorithm: ALG,
      keys,
      extensions: [
        new x509.BasicConstraintsExtension(true, 0, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
        await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
      ],
    });
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // The key first and exclusively (wx): two instances racing keep one pair, never a mixed one.
    writeFileSync(keyPath, pem('PRIVATE KEY', await webcrypto.subtle.exportKey('pkcs8', keys.privateKey)), { mode: 0o600, flag: 'wx' });
    const certPem = certificate.toString('pem') + '\n';
    writeFileSync(certPath, certPem, { mode: 0o644, flag: 'wx' });
    return new EgressCa(certificate, keys.privateKey, certPem);
  }

  /** A TLS server context presenting a leaf for `host` (a name or an IP literal) signed by this CA. */
  contextFor(host: string): Promise<tls.SecureContext> {
    const found = this.#leaves.get(host);
    if (found) return found;
    const made = this.#leaf(host);
    this.#leaves.set(host, made);
    made.catch(() => this.#leaves.delete(host));
    if (this.#leaves.size > MAX_LEAVES) this.#leaves.delete(this.#leaves.keys().next().value!);
    return made;
  }

  async #leaf(host: string): Promise<tls.SecureContext> {
    const keys = (await webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify'])) as CryptoKeyPair;
    const address = canonicalAddress(host);
    const now = Date.now();
    const leaf = await x509.X509CertificateGenerator.create({
      subject: `CN=${address ?? host}`,
      issuer: this.certificate.subject,
      notBefore: new Date(now - DAY_MS),
      notAfter: new Date(now + 7 * DAY_MS),
      signingAlgorithm: ALG,
      publicKey: keys.publicKey,
      signingKey: this.privateKey,
      extensions: [
        new x509.SubjectAlternativeNameExtension([address === undefined ? { type: 'dns', value: host } : { type: 'ip', value: address }]),
        new x509.BasicConstraintsExtension(false, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
        new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
        await x509.AuthorityKeyIdentifierExtension.create(this.certificate),
        await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
      ],
    });
    const key = pem('PRIVATE KEY', await webcrypto.subtle.exportKey('pkcs8', keys.privateKey));
    return tls.createSecureContext({ key, cert: `${leaf.toString('pem')}\n${this.certPem}` });
  }
}
