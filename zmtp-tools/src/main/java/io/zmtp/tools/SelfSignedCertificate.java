package io.zmtp.tools;

import org.bouncycastle.asn1.ASN1EncodableVector;
import org.bouncycastle.asn1.ASN1Encoding;
import org.bouncycastle.asn1.ASN1Integer;
import org.bouncycastle.asn1.DERBitString;
import org.bouncycastle.asn1.DERSequence;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.AlgorithmIdentifier;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.ExtensionsGenerator;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.asn1.x509.TBSCertificate;
import org.bouncycastle.asn1.x509.Time;
import org.bouncycastle.asn1.x509.V3TBSCertificateGenerator;
import org.bouncycastle.asn1.x9.X9ObjectIdentifiers;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.util.Base64;
import java.util.Date;
import java.util.HexFormat;

/**
 * A throw-away certificate for {@code wss://} tests: an EC P-256 key and a self-signed certificate for
 * {@code localhost}, {@code 127.0.0.1} and {@code ::1}, valid from a minute ago for a week. Built with Bouncy
 * Castle's ASN.1 classes (bcprov, which CURVE already brings) and signed by the JDK: Netty's own
 * {@code SelfSignedCertificate} needs bcpkix, which is not one of our dependencies.
 */
public final class SelfSignedCertificate {
    private static final Duration VALIDITY = Duration.ofDays(7);

    private final PrivateKey key;
    private final X509Certificate certificate;

    private SelfSignedCertificate(PrivateKey key, X509Certificate certificate) {
        this.key = key;
        this.certificate = certificate;
    }

    /** A new key pair and certificate. */
    public static SelfSignedCertificate generate() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"));
            KeyPair keys = generator.generateKeyPair();
            AlgorithmIdentifier signatureAlgorithm = new AlgorithmIdentifier(X9ObjectIdentifiers.ecdsa_with_SHA256);
            X500Name name = new X500Name("CN=localhost");
            long now = System.currentTimeMillis();
            V3TBSCertificateGenerator tbs = new V3TBSCertificateGenerator();
            tbs.setSerialNumber(new ASN1Integer(new BigInteger(63, new SecureRandom())));
            tbs.setSignature(signatureAlgorithm);
            tbs.setIssuer(name);
            tbs.setSubject(name);
            // A minute back: a client whose clock is a little behind still accepts it.
            tbs.setStartDate(new Time(new Date(now - 60_000)));
            tbs.setEndDate(new Time(new Date(now + VALIDITY.toMillis())));
            tbs.setSubjectPublicKeyInfo(SubjectPublicKeyInfo.getInstance(keys.getPublic().getEncoded()));
            ExtensionsGenerator extensions = new ExtensionsGenerator();
            // What HTTPS's host name check reads (the CN is not).
            extensions.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(new GeneralName[] {
                    new GeneralName(GeneralName.dNSName, "localhost"),
                    new GeneralName(GeneralName.iPAddress, "127.0.0.1"),
                    new GeneralName(GeneralName.iPAddress, "::1")}));
            tbs.setExtensions(extensions.generate());
            TBSCertificate toSign = tbs.generateTBSCertificate();
            Signature signer = Signature.getInstance("SHA256withECDSA");
            signer.initSign(keys.getPrivate());
            signer.update(toSign.getEncoded(ASN1Encoding.DER));
            ASN1EncodableVector certificate = new ASN1EncodableVector();
            certificate.add(toSign);
            certificate.add(signatureAlgorithm);
            certificate.add(new DERBitString(signer.sign()));
            byte[] der = new DERSequence(certificate).getEncoded(ASN1Encoding.DER);
            X509Certificate x509 = (X509Certificate) CertificateFactory.getInstance("X.509")
                    .generateCertificate(new ByteArrayInputStream(der));
            return new SelfSignedCertificate(keys.getPrivate(), x509);
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("self-signed certificate: " + e, e);
        }
    }

    /** The certificate's private key (EC P-256). */
    public PrivateKey key() {
        return key;
    }

    /** The self-signed certificate, for {@code localhost}, {@code 127.0.0.1} and {@code ::1}. */
    public X509Certificate certificate() {
        return certificate;
    }

    /** The SHA-256 fingerprint of the certificate, as browsers and {@code openssl x509 -fingerprint} show it. */
    public String fingerprint() {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(certificate.getEncoded());
            return HexFormat.ofDelimiter(":").withUpperCase().formatHex(digest);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Writes the certificate ({@code CERTIFICATE}) and the key (PKCS#8 {@code PRIVATE KEY}) as PEM files. */
    public void writePem(Path certificateFile, Path keyFile) throws IOException {
        try {
            Files.writeString(certificateFile, pem("CERTIFICATE", certificate.getEncoded()), StandardCharsets.US_ASCII);
        } catch (GeneralSecurityException e) {
            throw new IOException(e);
        }
        Files.writeString(keyFile, pem("PRIVATE KEY", key.getEncoded()), StandardCharsets.US_ASCII);
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }
}
