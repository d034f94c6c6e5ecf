package org.zeromq;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.zeromq.proto.ZPicture;
import org.zeromq.util.ZData;
import org.zeromq.util.ZDigest;
import org.zeromq.util.ZMetadata;

import java.io.File;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.zeromq.RealJeromq.call;
import static org.zeromq.RealJeromq.create;
import static org.zeromq.RealJeromq.type;
import static org.zeromq.RealJeromq.types;

/**
 * The same inputs through JeroMQ 0.6.0 and through this module: files one writes, the other reads; encodings come
 * out byte for byte the same.
 */
class JeromqCompatibilityTest {
    @TempDir
    Path dir;

    private static final Class<?>[] STRING = types(String.class);
    private static final Class<?>[] NONE = types();

    @Test
    void shouldCallJeromqsOwnClasses() {
        assertThat(type("org.zeromq.ZConfig")).isNotSameAs(ZConfig.class);
        assertThat(type("org.zeromq.ZConfig").getProtectionDomain().getCodeSource().getLocation().getPath())
                .endsWith("jeromq-0.6.0.jar");
    }

    @Test
    void shouldWriteCertificatesThatJeromqsZConfigAndZCertStoreRead() throws IOException {
        ZCert ours = new ZCert();
        ours.setMeta("name", "ours");
        ours.savePublic(dir.resolve("ours.key").toString());
        File secret = ours.saveSecret(dir.resolve("ours.key_secret").toString());

        Object config = call(type("org.zeromq.ZConfig"), "load", STRING, secret.getPath());
        assertThat(call(config, "getValue", STRING, "curve/public-key")).isEqualTo(ours.getPublicKeyAsZ85());
        assertThat(call(config, "getValue", STRING, "curve/secret-key")).isEqualTo(ours.getSecretKeyAsZ85());
        assertThat(call(config, "getValue", STRING, "metadata/name")).isEqualTo("ours");

        Object store = create("org.zeromq.ZCertStore", STRING, dir.toString());
        assertThat(call(store, "containsPublicKey", STRING, ours.getPublicKeyAsZ85())).isEqualTo(true);
        Object metadata = call(store, "getMetadata", STRING, ours.getPublicKeyAsZ85());
        assertThat(call(metadata, "get", STRING, "name")).isEqualTo("ours");
    }

    @Test
    void shouldReadCertificatesThatJeromqWrites() throws IOException {
        ZCert keys = new ZCert();
        Object theirs = create("org.zeromq.ZCert", types(String.class, String.class), keys.getPublicKeyAsZ85(),
                keys.getSecretKeyAsZ85());
        call(theirs, "setMeta", types(String.class, String.class), "name", "theirs");
        call(theirs, "saveSecret", STRING, dir.resolve("theirs.key_secret").toString());

        ZConfig config = ZConfig.load(dir.resolve("theirs.key_secret").toString());
        assertThat(config.getValue("curve/secret-key")).isEqualTo(keys.getSecretKeyAsZ85());
        ZCertStore store = new ZCertStore(dir.toString());
        assertThat(store.containsPublicKey(keys.getPublicKey())).isTrue();
        assertThat(store.getMetadata(keys.getPublicKeyAsZ85()).get("name")).isEqualTo("theirs");
    }

    @Test
    void shouldAgreeWithJeromqOnAConfigurationsValues() throws IOException {
        ZConfig ours = new ZConfig("root", null);
        ours.putValue("context/iothreads", "1");
        ours.putValue("main/frontend/bind", "tcp://*:5555");
        ours.putValue("main/frontend/option/subscribe", "#2");
        ours.putValue("main/type", "queue with spaces");
        File file = ours.save(dir.resolve("config.zpl").toString());

        Object theirs = call(type("org.zeromq.ZConfig"), "load", STRING, file.getPath());
        @SuppressWarnings("unchecked")
        Map<String, String> values = (Map<String, String>) call(theirs, "getValues", NONE);
        assertThat(values).isEqualTo(ours.getValues());

        call(theirs, "save", STRING, dir.resolve("theirs.zpl").toString());
        assertThat(ZConfig.load(dir.resolve("theirs.zpl").toString()).getValues()).isEqualTo(ours.getValues());
    }

    @Test
    void shouldEncodeBinaryPicturesByteForByteAsJeromq() {
        String picture = "1248sSbc";
        Object[] args = {0xAB, 0xCDEF, 0x01020304, 0x05060708090A0B0CL, "short", "L".repeat(300),
                new byte[] {1, 2, 3}, new byte[0]};
        byte[] ours = new ZPicture().msgBinaryPicture(picture, args).getFirst().getData();
        Object theirMsg = call(create("org.zeromq.proto.ZPicture", NONE), "msgBinaryPicture",
                types(String.class, Object[].class), picture, args);
        byte[] theirs = (byte[]) call(call(theirMsg, "getFirst", NONE), "getData", NONE);
        assertThat(ours).isEqualTo(theirs);
    }

    @Test
    void shouldEncodeMetadataAsJeromq() {
        ZMetadata ours = new ZMetadata();
        ours.set("User-Id", "alice");
        Object theirs = create("org.zeromq.util.ZMetadata", NONE);
        call(theirs, "set", types(String.class, String.class), "User-Id", "alice");
        assertThat(ours.bytes()).isEqualTo((byte[]) call(theirs, "bytes", NONE));

        String encoded = new String(ours.bytes(), StandardCharsets.UTF_8);
        Object read = call(type("org.zeromq.util.ZMetadata"), "read", STRING, encoded);
        assertThat(call(read, "get", STRING, "User-Id")).isEqualTo("alice");
    }

    @Test
    void shouldShowDataAndDigestsAsJeromq() {
        Class<?> theirData = type("org.zeromq.util.ZData");
        byte[][] samples = {{}, "text ~".getBytes(StandardCharsets.US_ASCII), {0, 1, (byte) 0xFF, 'a'}, {127, 32}};
        for (byte[] sample : samples) {
            assertThat(ZData.toString(sample)).isEqualTo(call(theirData, "toString", types(byte[].class), sample));
            assertThat(ZData.strhex(sample)).isEqualTo(call(theirData, "strhex", types(byte[].class), sample));
        }
        Object theirDigest = create("org.zeromq.util.ZDigest", NONE);
        call(theirDigest, "update", types(byte[].class), (Object) "abc".getBytes(StandardCharsets.US_ASCII));
        assertThat(new ZDigest().update("abc".getBytes(StandardCharsets.US_ASCII)).string())
                .isEqualTo(call(theirDigest, "string", NONE));
    }

    /** Every constant of our zmq.ZMQ and zmq.ZError is JeroMQ's, under the same name with the same value. */
    @Test
    void shouldHaveJeromqsZmqConstants() throws IllegalAccessException {
        for (Class<?> ours : new Class<?>[] {zmq.ZMQ.class, zmq.ZError.class}) {
            Class<?> theirs = type(ours.getName());
            int compared = 0;
            for (Field field : ours.getFields()) {
                if (!Modifier.isStatic(field.getModifiers())) {
                    continue;
                }
                Object value = field.get(null);
                Object expected;
                try {
                    expected = theirs.getField(field.getName()).get(null);
                } catch (NoSuchFieldException e) {
                    throw new AssertionError(ours.getName() + "." + field.getName() + " is not JeroMQ's", e);
                }
                assertThat(value).as(ours.getName() + "." + field.getName()).isEqualTo(expected);
                compared++;
            }
            assertThat(compared).as(ours.getName()).isGreaterThan(30);
        }
    }

    /** org.zeromq.Utils: the same two helpers. */
    @Test
    void shouldHaveJeromqsUtils() throws IOException {
        for (java.lang.reflect.Method method : type("org.zeromq.Utils").getDeclaredMethods()) {
            if (Modifier.isPublic(method.getModifiers())) {
                assertThat(Utils.class.getDeclaredMethods()).as("Utils." + method.getName())
                        .anySatisfy(m -> {
                            assertThat(m.getName()).isEqualTo(method.getName());
                            assertThat(m.getParameterTypes()).isEqualTo(method.getParameterTypes());
                        });
            }
        }
        int port = Utils.findOpenPort();
        try (java.net.ServerSocket free = new java.net.ServerSocket(port)) {
            assertThat(free.getLocalPort()).isEqualTo(port);
        }
        Utils.checkArgument(true, "not thrown");
        assertThatThrownBy(() -> Utils.checkArgument(false, "the message"))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("the message");
    }
}
