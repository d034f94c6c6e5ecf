package org.zeromq;

import io.zmtp.codec.security.Z85;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ZCertStoreTest {
    @TempDir
    Path dir;

    private ZCert saved(String name, boolean secret) throws IOException {
        ZCert cert = new ZCert();
        cert.setMeta("name", name);
        String file = dir.resolve(name).toString();
        if (secret) {
            cert.saveSecret(file);
        } else {
            cert.savePublic(file);
        }
        return cert;
    }

    /** Moves a file's modification time so that the Timestamper sees the change without waiting for the clock. */
    private static void touch(Path path, long plusMillis) {
        File file = path.toFile();
        assertThat(file.setLastModified(file.lastModified() + plusMillis)).isTrue();
    }

    @Test
    void shouldFindThePublicKeysOfTheCertificatesInTheDirectoryAndBelow() throws IOException {
        ZCert one = saved("one", false);
        ZCert two = saved("two", true);
        Files.createDirectories(dir.resolve("sub"));
        ZCert three = new ZCert();
        three.savePublic(dir.resolve("sub/three").toString());

        ZCertStore store = new ZCertStore(dir.toString());
        assertThat(store.getCertificatesCount()).isEqualTo(3);
        assertThat(store.containsPublicKey(one.getPublicKeyAsZ85())).isTrue();
        assertThat(store.containsPublicKey(two.getPublicKey())).isTrue();
        assertThat(store.containsPublicKey(three.getPublicKeyAsZ85())).isTrue();
        assertThat(store.containsPublicKey(new ZCert().getPublicKey())).isFalse();
        assertThat(store.getMetadata(one.getPublicKeyAsZ85()).get("name")).isEqualTo("one");
        assertThat(store.getMetadata(new ZCert().getPublicKeyAsZ85())).isNull();
    }

    @Test
    void shouldCreateAMissingDirectory() {
        Path missing = dir.resolve("a/b");
        ZCertStore store = new ZCertStore(missing.toString());
        assertThat(missing).isDirectory();
        assertThat(store.getCertificatesCount()).isZero();
    }

    @Test
    void shouldSeeCertificatesAddedAndRemovedByTimestamp() throws IOException {
        ZCert one = saved("one", false);
        ZCertStore store = new ZCertStore(dir.toString());
        assertThat(store.reloadIfNecessary()).isFalse();

        ZCert two = saved("two", false);
        assertThat(store.containsPublicKey(two.getPublicKeyAsZ85())).isTrue();
        assertThat(store.checkForChanges()).isFalse();

        Files.delete(dir.resolve("one"));
        assertThat(store.containsPublicKey(one.getPublicKeyAsZ85())).isFalse();
        assertThat(store.getCertificatesCount()).isEqualTo(1);
    }

    @Test
    void shouldSeeACertificateRewrittenInPlaceByTimestamp() throws IOException {
        saved("one", false);
        ZCertStore store = new ZCertStore(dir.toString(), new ZCertStore.Timestamper());
        ZCert replacement = new ZCert();
        replacement.savePublic(dir.resolve("one").toString());
        touch(dir.resolve("one"), 10_000);
        assertThat(store.checkForChanges()).isTrue();
        assertThat(store.containsPublicKey(replacement.getPublicKeyAsZ85())).isTrue();
        assertThat(store.getCertificatesCount()).isEqualTo(1);
    }

    @Test
    void shouldSeeAChangeOfContentThatKeepsTheTimestampByHash() throws IOException {
        saved("one", false);
        ZCertStore store = new ZCertStore(dir.toString(), new ZCertStore.Hasher());
        long modified = dir.resolve("one").toFile().lastModified();
        ZCert replacement = new ZCert();
        replacement.savePublic(dir.resolve("one").toString());
        assertThat(dir.resolve("one").toFile().setLastModified(modified)).isTrue();
        assertThat(store.containsPublicKey(replacement.getPublicKeyAsZ85())).isTrue();
        assertThat(store.reloadIfNecessary()).isFalse();
    }

    @Test
    void shouldSkipFilesThatAreNotCertificatesAndNotReadThemAgainUntilTheyChange() throws IOException {
        ZCert good = saved("good", false);
        Files.writeString(dir.resolve("notes.txt"), "\tnot ZPL at all\n", StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("nokey"), "curve\n    other = 1\n", StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("badkey"), "curve\n    public-key = \"tooShort\"\n", StandardCharsets.UTF_8);

        ZCertStore store = new ZCertStore(dir.toString());
        assertThat(store.containsPublicKey(good.getPublicKeyAsZ85())).isTrue();
        assertThat(store.getCertificatesCount()).isEqualTo(1);
        assertThat(store.checkForChanges()).isFalse();

        ZCert fixed = new ZCert();
        fixed.savePublic(dir.resolve("nokey").toString());
        touch(dir.resolve("nokey"), 10_000);
        assertThat(store.containsPublicKey(fixed.getPublicKeyAsZ85())).isTrue();
    }

    @Test
    void shouldTakeAThirtyTwoCharacterKeyAsTheKeysBytesAsJeromqDoes() throws IOException {
        String raw = "0123456789abcdef0123456789abcdef";
        Files.writeString(dir.resolve("raw"), "curve\n    public-key = \"" + raw + "\"\n", StandardCharsets.UTF_8);
        ZCertStore store = new ZCertStore(dir.toString());
        assertThat(store.containsPublicKey(raw.getBytes(StandardCharsets.UTF_8))).isTrue();
        assertThat(store.containsPublicKey(Z85.encode(raw.getBytes(StandardCharsets.UTF_8)))).isTrue();
    }

    @Test
    void shouldReadADirectoryReachedTwiceThroughALinkOnce() throws IOException {
        ZCert one = saved("one", false);
        try {
            Files.createSymbolicLink(dir.resolve("loop"), dir);
        } catch (UnsupportedOperationException | IOException e) {
            org.junit.jupiter.api.Assumptions.abort("no symbolic links here: " + e);
        }
        ZCertStore store = new ZCertStore(dir.toString());
        assertThat(store.containsPublicKey(one.getPublicKeyAsZ85())).isTrue();
        assertThat(store.checkForChanges()).isFalse();
    }

    @Test
    void shouldRejectKeysOfTheWrongLength() {
        ZCertStore store = new ZCertStore(dir.toString());
        assertThatThrownBy(() -> store.containsPublicKey(new byte[31])).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> store.containsPublicKey("abc")).isInstanceOf(IllegalArgumentException.class);
    }
}
