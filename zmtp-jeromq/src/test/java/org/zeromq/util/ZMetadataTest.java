package org.zeromq.util;

import org.junit.jupiter.api.Test;
import org.zeromq.ZConfig;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ZMetadataTest {
    private static String latin1(byte[] bytes) {
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    @Test
    void shouldEncodeAPropertyAsZmtpMetadata() {
        ZMetadata metadata = new ZMetadata();
        metadata.set("User-Id", "alice");
        assertThat(metadata.bytes()).containsExactly(
                7, 'U', 's', 'e', 'r', '-', 'I', 'd', // name length, name
                0, 0, 0, 5, 'a', 'l', 'i', 'c', 'e'); // value length (big-endian), value
    }

    @Test
    void shouldWriteToAStreamWhatBytesReturns() throws IOException {
        ZMetadata metadata = new ZMetadata();
        metadata.set("a", "1");
        metadata.set("Socket-Type", "DEALER");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        metadata.write(out);
        assertThat(out.toByteArray()).isEqualTo(metadata.bytes());
    }

    @Test
    void shouldReadBackWhatItEncodes() {
        ZMetadata metadata = new ZMetadata();
        metadata.set("X-Hello", "World");
        metadata.set("Identity", "");
        metadata.set("Empty", null);
        ZMetadata read = ZMetadata.read(new String(metadata.bytes(), StandardCharsets.UTF_8));
        assertThat(read).isEqualTo(metadata).hasSameHashCodeAs(metadata);
        assertThat(read.get("Empty")).isEmpty();
        assertThat(read.size()).isEqualTo(3);
    }

    @Test
    void shouldKeepThePropertiesBeforeOneThatDoesNotFit() {
        String data = latin1(new byte[] {1, 'a', 0, 0, 0, 1, 'x', 1, 'b', 0, 0, 0, 9, 'y'});
        ZMetadata read = ZMetadata.read(data);
        assertThat(read.keySet()).containsExactly("a");
        assertThat(read.get("a")).isEqualTo("x");
        // A name with no room for its value's length.
        assertThat(ZMetadata.read(latin1(new byte[] {3, 'a', 'b', 'c', 0})).isEmpty()).isTrue();
    }

    @Test
    void shouldReadNothingFromNullOrEmpty() {
        assertThat(ZMetadata.read((String) null)).isNull();
        assertThat(ZMetadata.read("")).isNull();
    }

    @Test
    void shouldRefuseANameLongerThan255Bytes() {
        ZMetadata metadata = new ZMetadata();
        metadata.set("n".repeat(256), "v");
        assertThatThrownBy(metadata::bytes).isInstanceOf(IllegalStateException.class).hasMessageContaining("256");
    }

    @Test
    void shouldReadTheMetadataSectionOfAConfiguration() {
        ZConfig config = new ZConfig("root", null);
        config.putValue("metadata/name", "server");
        config.putValue("metadata/site", "lab");
        config.putValue("curve/public-key", "ignored");
        ZMetadata metadata = ZMetadata.read(config);
        assertThat(metadata.keySet()).containsExactlyInAnyOrder("name", "site");
        assertThat(metadata.get("site")).isEqualTo("lab");
        assertThat(ZMetadata.read(new ZConfig("root", null))).isNull();
    }

    @Test
    void shouldBehaveAsAMapWithLiveViews() {
        ZMetadata metadata = new ZMetadata();
        assertThat(metadata.isEmpty()).isTrue();
        metadata.set("a", "1");
        metadata.set("b", "2");
        assertThat(metadata.containsKey("a")).isTrue();
        assertThat(metadata.values()).containsExactlyInAnyOrder("1", "2");
        metadata.keySet().remove("a");
        assertThat(metadata.get("a")).isNull();
        metadata.entrySet().removeIf(e -> e.getKey().equals("b"));
        assertThat(metadata.size()).isZero();
        metadata.set("c", "3");
        metadata.remove("c");
        metadata.set("d", "4");
        metadata.clear();
        assertThat(metadata.isEmpty()).isTrue();
        assertThat(metadata.toString()).isEqualTo("Metadata={}");
    }
}
