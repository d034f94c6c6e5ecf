package org.zeromq;

import io.zmtp.codec.security.CurveKeyPair;
import io.zmtp.codec.security.Z85;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;
import static org.assertj.core.api.Assumptions.assumeThat;

class ZCertTest {
    /** rfc 32's test vector: these 8 bytes are "HelloWorld" in Z85. */
    private static final byte[] HELLO = {(byte) 0x86, 0x4F, (byte) 0xD2, 0x6F, (byte) 0xB5, 0x59, (byte) 0xF7, 0x5B};

    @Test
    void shouldMakeANewKeyPairWhosePublicKeyIsTheSecretKeys() {
        ZCert cert = new ZCert();
        CurveKeyPair pair = CurveKeyPair.fromSecretKey(cert.getSecretKey());
        assertThat(cert.getPublicKey()).isEqualTo(pair.publicKey());
        assertThat(cert.getPublicKeyAsZ85()).isEqualTo(pair.publicKeyZ85()).hasSize(40);
        assertThat(cert.getSecretKeyAsZ85()).isEqualTo(pair.secretKeyZ85());
        assertThat(new ZCert().getPublicKeyAsZ85()).isNotEqualTo(cert.getPublicKeyAsZ85());
    }

    @Test
    void shouldHoldTheSameKeysGivenInBinaryOrZ85() {
        byte[] pub = new byte[32];
        byte[] sec = new byte[32];
        for (int i = 0; i < 4; i++) {
            System.arraycopy(HELLO, 0, pub, i * 8, 8);
        }
        Arrays.fill(sec, (byte) 7);
        ZCert binary = new ZCert(pub, sec);
        assertThat(binary.getPublicKeyAsZ85()).isEqualTo("HelloWorld".repeat(4));
        ZCert text = new ZCert(binary.getPublicKeyAsZ85(), binary.getSecretKeyAsZ85());
        assertThat(text.getPublicKey()).isEqualTo(pub);
        assertThat(text.getSecretKey()).isEqualTo(sec);
        // Copies in and out.
        pub[0] = 0;
        binary.getPublicKey()[1] = 0;
        assertThat(binary.getPublicKeyAsZ85()).isEqualTo(Z85.encode(binary.getPublicKey()));
        assertThat(binary.getPublicKey()[0]).isEqualTo(HELLO[0]);
    }

    @Test
    void shouldHoldAPublicKeyAlone() {
        ZCert cert = new ZCert("HelloWorld".repeat(4));
        assertThat(cert.getSecretKey()).isNull();
        assertThat(cert.getSecretKeyAsZ85()).isNull();
        assertThat(new ZCert(cert.getPublicKey(), null).getPublicKeyAsZ85()).isEqualTo(cert.getPublicKeyAsZ85());
    }

    @Test
    void shouldRejectKeysOfTheWrongLength() {
        assertThatThrownBy(() -> new ZCert((String) null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ZCert(null, new byte[32])).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ZCert(new byte[31], null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("31");
        assertThatThrownBy(() -> new ZCert(new byte[32], new byte[33])).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ZCert("short")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ZCert("HelloWorld".repeat(4), "x".repeat(39)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ZCert("\"".repeat(40))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldWriteAPublicCertificateThatCzmqReadsWithMetadataAndNoSecret(@TempDir Path dir) throws IOException {
        ZCert cert = new ZCert();
        cert.setMeta("name", "server one");
        cert.setMeta("email", "ops@example.org");
        cert.setMeta("gone", "x");
        cert.unsetMeta("gone");
        File file = cert.savePublic(dir.resolve("server.key").toString());

        List<String> lines = Files.readAllLines(file.toPath(), StandardCharsets.UTF_8);
        assertThat(lines.get(0)).startsWith("#");
        CzmqCertificateFile czmq = new CzmqCertificateFile(lines);
        assertThat(czmq.values).containsOnly(
                entry("metadata/name", "server one"),
                entry("metadata/email", "ops@example.org"),
                entry("curve/public-key", cert.getPublicKeyAsZ85()));
        assertThat(String.join("\n", lines)).doesNotContain(cert.getSecretKeyAsZ85());

        ZConfig read = ZConfig.load(file.getPath());
        assertThat(read.getValue("curve/public-key")).isEqualTo(cert.getPublicKeyAsZ85());
        assertThat(read.pathExists("curve/secret-key")).isFalse();
        assertThat(read.getValue("metadata/name")).isEqualTo("server one");
    }

    @Test
    void shouldWriteASecretCertificateThatCzmqReadsReadableByItsOwnerOnly(@TempDir Path dir) throws IOException {
        ZCert cert = new ZCert();
        File file = cert.saveSecret(dir.resolve("keys/client.key_secret").toString());

        CzmqCertificateFile czmq = new CzmqCertificateFile(Files.readAllLines(file.toPath(), StandardCharsets.UTF_8));
        // CZMQ writes the metadata section even when it is empty.
        assertThat(czmq.values).containsExactly(
                entry("metadata", null),
                entry("curve/secret-key", cert.getSecretKeyAsZ85()),
                entry("curve/public-key", cert.getPublicKeyAsZ85()));
        ZConfig read = ZConfig.load(file.getPath());
        ZCert back = new ZCert(read.getValue("curve/public-key"), read.getValue("curve/secret-key"));
        assertThat(back.getSecretKey()).isEqualTo(cert.getSecretKey());

        assumeThat(dir.getFileSystem().supportedFileAttributeViews()).contains("posix");
        assertThat(Files.getPosixFilePermissions(file.toPath()))
                .containsExactlyInAnyOrder(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);
    }

    @Test
    void shouldWriteTheSameCertificateToAWriter() throws IOException {
        ZCert cert = new ZCert();
        cert.setMeta("k", "v");
        StringWriter pub = new StringWriter();
        StringWriter sec = new StringWriter();
        cert.savePublic(pub);
        cert.saveSecret(sec);
        assertThat(new CzmqCertificateFile(List.of(pub.toString().split("\n"))).values)
                .containsOnlyKeys("metadata/k", "curve/public-key");
        assertThat(new CzmqCertificateFile(List.of(sec.toString().split("\n"))).values)
                .containsOnlyKeys("metadata/k", "curve/public-key", "curve/secret-key");
    }

    @Test
    void shouldReadACertificateWrittenByCzmq() throws IOException {
        CurveKeyPair pair = CurveKeyPair.generate();
        // The layout zcert_save_secret writes.
        String czmq = String.join("\n",
                "#   ****  Generated on 2026-01-01 00:00:00 by CZMQ  ****",
                "#   ZeroMQ CURVE **Secret** Certificate",
                "",
                "metadata",
                "    name = \"peer\"",
                "curve",
                "    public-key = \"" + pair.publicKeyZ85() + "\"",
                "    secret-key = \"" + pair.secretKeyZ85() + "\"",
                "");
        ZConfig config = ZConfig.load(new java.io.StringReader(czmq));
        ZCert cert = new ZCert(config.getValue("curve/public-key"), config.getValue("curve/secret-key"));
        assertThat(cert.getPublicKey()).isEqualTo(pair.publicKey());
        assertThat(org.zeromq.util.ZMetadata.read(config).get("name")).isEqualTo("peer");
    }

    @Test
    void shouldRefuseMetadataThatWouldForgeAKeyInTheFile() {
        ZCert cert = new ZCert();
        cert.setMeta("name", "x\ncurve\n    public-key = \"" + "HelloWorld".repeat(4) + "\"");
        assertThatThrownBy(() -> cert.savePublic(new StringWriter())).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldTakeAKeyPairFromZmqCurve() {
        ZMQ.Curve.KeyPair pair = ZMQ.Curve.generateKeyPair();
        ZCert cert = new ZCert(pair);
        assertThat(cert.getPublicKeyAsZ85()).isEqualTo(pair.publicKey);
        assertThat(cert.getSecretKeyAsZ85()).isEqualTo(pair.secretKey);
    }

    @Test
    void shouldApplyItsKeysSoThatACurveHandshakeSucceeds() {
        try (ZContext context = new ZContext()) {
            ZCert serverCert = new ZCert();
            ZCert clientCert = new ZCert();
            ZMQ.Socket server = context.createSocket(SocketType.PAIR);
            serverCert.apply(server);
            server.setCurveServer(true);
            int port = server.bindToRandomPort("tcp://127.0.0.1");
            ZMQ.Socket client = context.createSocket(SocketType.PAIR);
            clientCert.apply(client);
            client.setCurveServerKey(serverCert.getPublicKey());
            client.connect("tcp://127.0.0.1:" + port);
            assertThat(client.getCurvePublicKey()).isEqualTo(clientCert.getPublicKey());
            assertThat(client.send("over CURVE")).isTrue();
            assertThat(server.recvStr()).isEqualTo("over CURVE");
        }
    }

    /**
     * The files, line for line as JeroMQ writes them (its tests compare them with a pattern): its comment lines, the
     * metadata, and in the secret file the secret key before the public key.
     */
    @Test
    void shouldWriteCertificatesLineForLineAsJeromq() throws IOException {
        ZCert cert = new ZCert("HelloWorld".repeat(4), "0123456789".repeat(4));
        cert.setMeta("version", "1");
        StringWriter pub = new StringWriter();
        cert.savePublic(pub);
        StringWriter sec = new StringWriter();
        cert.saveSecret(sec);
        String generated = "# \\*\\* Generated on \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d[+-]\\d{4} by ZCert \\*\\*\n";
        String tail = "\nmetadata\n    version = \"1\"\ncurve\n";
        assertThat(pub.toString()).matches(generated
                + "#    ZeroMQ CURVE Public Certificate\n"
                + "#    Exchange securely, or use a secure mechanism to verify the contents\n"
                + "#    of this file after exchange\\. Store public certificates in your home\n"
                + "#    directory, in the \\.curve subdirectory\\.\n"
                + tail
                + "    public-key = \"(HelloWorld){4}\"\n");
        assertThat(sec.toString()).matches(generated
                + "#    ZeroMQ CURVE \\*\\*Secret\\*\\* Certificate\n"
                + "#    DO NOT PROVIDE THIS FILE TO OTHER USERS nor change its permissions\\.\n"
                + tail
                + "    secret-key = \"(0123456789){4}\"\n"
                + "    public-key = \"(HelloWorld){4}\"\n");
    }
}
