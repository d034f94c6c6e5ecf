package io.zmtp.interop;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.codec.security.CurveKeyPair;
import io.zmtp.codec.security.DefaultZmtpAuthenticator;
import io.zmtp.socket.ZmtpContext;
import io.zmtp.socket.ZmtpSocket;
import io.zmtp.socket.ZmtpSocketOption;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static io.zmtp.testkit.TestTimeouts.scaled;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * ws:// (ZWS 2.0) against the system's libzmq: Debian's 4.3.4 (libzmq5/libzmq3-dev), whose build has ws:// (its
 * {@code zmq_has("WS")} is 1; {@code "WSS"} is 0: no GnuTLS, so no wss:// here) and CURVE (libsodium). A C peer
 * (src/test/c/libzmq_ws_peer.c, built by this test with gcc against libzmq3-dev, both installed by the
 * pre-integration-test phase through bench/build.sh) plays the other end of REQ/REP, PUB/SUB, DEALER/ROUTER and
 * PUSH/PULL: our socket in either role, binding or connecting, with NULL, PLAIN and CURVE (the binding side is the
 * server). The same cells against libzmq 4.3.5 (zeromq.js) are {@link WsInteropIT}'s.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LibzmqWsIT {
    private static final Logger LOG = LoggerFactory.getLogger(LibzmqWsIT.class);
    private static final Duration WAIT = scaled(Duration.ofSeconds(10));
    private static final int COUNT = 5;
    private static Path peerBinary;
    private static String version;

    private ZmtpContext context;
    private final List<Process> peers = new ArrayList<>();

    enum Pattern {
        REQ_REP(ZmtpSocketType.REQ, ZmtpSocketType.REP), PUB_SUB(ZmtpSocketType.PUB, ZmtpSocketType.SUB),
        DEALER_ROUTER(ZmtpSocketType.DEALER, ZmtpSocketType.ROUTER), PUSH_PULL(ZmtpSocketType.PUSH, ZmtpSocketType.PULL);

        final ZmtpSocketType first;
        final ZmtpSocketType second;

        Pattern(ZmtpSocketType first, ZmtpSocketType second) {
            this.first = first;
            this.second = second;
        }
    }

    record Case(Pattern pattern, ZmtpSocketType ours, boolean weBind, String mechanism) {
        ZmtpSocketType theirs() {
            return ours == pattern.first ? pattern.second : pattern.first;
        }

        @Override
        public String toString() {
            return mechanism + ": our " + ours + (weBind ? " binds" : " connects") + ", libzmq's " + theirs()
                    + (weBind ? " connects" : " binds");
        }
    }

    static Stream<Case> cases() {
        List<Case> cases = new ArrayList<>();
        for (String mechanism : List.of("NULL", "PLAIN", "CURVE")) {
            for (Pattern p : Pattern.values()) {
                for (ZmtpSocketType ours : List.of(p.first, p.second)) {
                    for (boolean weBind : List.of(true, false)) {
                        cases.add(new Case(p, ours, weBind, mechanism));
                    }
                }
            }
        }
        return cases.stream();
    }

    @BeforeAll
    static void buildPeer() throws Exception {
        Path source = Path.of(System.getProperty("zmtp.interop.cSources", "src/test/c"), "libzmq_ws_peer.c")
                .toAbsolutePath();
        Path out = Path.of("target", "libzmq-ws-peer").toAbsolutePath();
        Files.createDirectories(out);
        peerBinary = out.resolve("libzmq_ws_peer");
        Process gcc = new ProcessBuilder("gcc", "-O1", "-Wall", "-o", peerBinary.toString(), source.toString(),
                "-lzmq", "-lpthread").redirectErrorStream(true).start();
        String output = new String(gcc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(gcc.waitFor()).as("gcc " + source + " -lzmq (gcc and libzmq3-dev: bench/install-libzmq.sh "
                + "installs them, as zmtp-interop's pre-integration-test phase does): " + output).isZero();
        Process v = new ProcessBuilder(peerBinary.toString(), "version").redirectErrorStream(true).start();
        version = new String(v.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertThat(v.waitFor()).isZero();
        LOG.info("libzmq ws peer: {}", version);
        assertThat(version).as("the system's libzmq must have ws:// (Debian's 4.3.4 build does)").contains(" ws=1")
                .contains(" curve=1");
    }

    @BeforeEach
    void start() {
        context = ZmtpContext.builder().lingerCapMillis(1000).build();
    }

    @AfterEach
    void stop() {
        peers.forEach(Process::destroyForcibly);
        context.close();
    }

    /** A running libzmq_ws_peer and the lines it prints. */
    private final class Peer {
        final Process process;
        final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

        Peer(String role, String endpoint, String mechanism) throws IOException {
            process = new ProcessBuilder(peerBinary.toString(), role, endpoint, String.valueOf(COUNT), mechanism)
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
            peers.add(process);
            Thread reader = new Thread(() -> {
                try (BufferedReader r = new BufferedReader(
                        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                    for (String l; (l = r.readLine()) != null; ) {
                        lines.add(l);
                    }
                } catch (IOException e) {
                    lines.add("ERR " + e);
                }
            }, "libzmq-ws-peer-" + role);
            reader.setDaemon(true);
            reader.start();
        }

        String next() throws InterruptedException {
            String l = lines.poll(WAIT.toSeconds(), TimeUnit.SECONDS);
            assertThat(l).as("a line from libzmq_ws_peer").isNotNull();
            assertThat(l).doesNotStartWith("ERR");
            return l;
        }

        void done() throws InterruptedException {
            assertThat(next()).isEqualTo("DONE");
            assertThat(process.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
            assertThat(process.exitValue()).isZero();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void exchange(Case c) throws Exception {
        LOG.info("{} against {}", c, version);
        ZmtpSocket ours = context.socket(c.ours());
        String theirType = c.theirs().name().toLowerCase();
        Peer peer;
        if (c.weBind()) {
            String theirMechanism = serve(ours, c.mechanism());
            String endpoint = ours.bind("ws://127.0.0.1:*/zmq");
            peer = new Peer(theirType + "-connect", endpoint, theirMechanism);
            assertThat(peer.next()).isEqualTo("READY");
        } else {
            peer = new Peer(theirType + "-bind", "ws://127.0.0.1:*/zmq", c.mechanism().equals("NULL") ? "null"
                    : c.mechanism().equals("PLAIN") ? "plain-server" : "curve-server");
            String[] bound = peer.next().split(" ");
            assertThat(bound[0]).isEqualTo("BOUND");
            assertThat(bound[1]).startsWith("ws://127.0.0.1:").endsWith("/zmq");
            if (c.mechanism().equals("PLAIN")) {
                ours.setOption(ZmtpSocketOption.PLAIN_USERNAME, "admin");
                ours.setOption(ZmtpSocketOption.PLAIN_PASSWORD, "secret");
            } else if (c.mechanism().equals("CURVE")) {
                ours.setOption(ZmtpSocketOption.CURVE_SERVERKEY, CurveKeyPair.decodeKey(bound[2], "server key"));
                ours.setOption(ZmtpSocketOption.CURVE_SECRETKEY, CurveKeyPair.generate().secretKey());
            }
            ours.connect(bound[1]);
        }
        switch (c.ours()) {
            case REQ -> {
                for (int i = 0; i < COUNT; i++) {
                    ours.send(ZmtpMessage.of("ask" + i));
                    assertThat(peer.next()).isEqualTo("MSG ask" + i);
                    assertThat(receive(ours)).containsExactly("re:ask" + i);
                }
            }
            case REP -> {
                for (int i = 0; i < COUNT; i++) {
                    assertThat(receive(ours)).containsExactly("q" + i);
                    ours.send(ZmtpMessage.of("a" + i));
                    assertThat(peer.next()).isEqualTo("MSG a" + i);
                }
            }
            case DEALER -> {
                for (int i = 0; i < COUNT; i++) {
                    ours.send(ZmtpMessage.of("ask" + i, "x"));
                    assertThat(peer.next()).isEqualTo("MSG ask" + i + "|x");
                    assertThat(receive(ours)).containsExactly("re:ask" + i);
                }
            }
            case ROUTER -> {
                for (int i = 0; i < COUNT; i++) {
                    ZmtpMessage m = ours.receive(WAIT);
                    assertThat(m).as("a request from libzmq's DEALER").isNotNull();
                    byte[] id = new byte[m.frame(0).readableBytes()];
                    m.frame(0).getBytes(m.frame(0).readerIndex(), id);
                    assertThat(m.toStrings().subList(1, m.size())).containsExactly("q" + i);
                    m.release();
                    ours.send(ZmtpMessage.ofBytes(id, ("a" + i).getBytes(StandardCharsets.UTF_8)));
                    assertThat(peer.next()).isEqualTo("MSG a" + i);
                }
            }
            case PUSH -> {
                for (int i = 0; i < COUNT; i++) {
                    // Over 255 bytes for one: a long ZMTP frame on our side, a 16-bit WebSocket length on the wire.
                    ours.send(ZmtpMessage.of("p" + i, i == 2 ? "z".repeat(300) : ""));
                }
                for (int i = 0; i < COUNT; i++) {
                    assertThat(peer.next()).isEqualTo("MSG p" + i + "|" + (i == 2 ? "z".repeat(300) : ""));
                }
            }
            case PULL -> {
                for (int i = 0; i < COUNT; i++) {
                    assertThat(receive(ours)).containsExactly("m" + i, "tail");
                }
            }
            case PUB -> {
                // libzmq's SUB subscribed to "A": only A- messages may arrive, once its subscription has reached us.
                List<String> got = new ArrayList<>();
                for (int n = 0; got.size() < COUNT && n < 500; n++) {
                    ours.send(ZmtpMessage.of("B-" + n));
                    ours.send(ZmtpMessage.of("A-" + n));
                    Thread.sleep(20);
                    for (String l; (l = peer.lines.poll()) != null; ) {
                        if (l.startsWith("MSG ")) {
                            got.add(l);
                        }
                    }
                }
                assertThat(got).hasSize(COUNT).allSatisfy(l -> assertThat(l).startsWith("MSG A-"));
                return;
            }
            case SUB -> {
                ours.setOption(ZmtpSocketOption.SUBSCRIBE, "A".getBytes(StandardCharsets.US_ASCII));
                for (int i = 0; i < COUNT; i++) {
                    assertThat(receive(ours).get(0)).startsWith("A-");
                }
                return;
            }
            default -> throw new AssertionError(c.ours());
        }
        peer.done();
    }

    /** Makes our binding socket the server of {@code mechanism}; returns the mechanism argument of libzmq's client. */
    private static String serve(ZmtpSocket ours, String mechanism) {
        switch (mechanism) {
            case "PLAIN" -> {
                ours.setOption(ZmtpSocketOption.PLAIN_SERVER, true);
                ours.setOption(ZmtpSocketOption.AUTHENTICATOR,
                        DefaultZmtpAuthenticator.builder().plainUser("admin", "secret").build());
                return "plain-client:admin:secret";
            }
            case "CURVE" -> {
                CurveKeyPair keys = CurveKeyPair.generate();
                ours.setOption(ZmtpSocketOption.CURVE_SERVER, true);
                ours.setOption(ZmtpSocketOption.CURVE_SECRETKEY, keys.secretKey());
                ours.setOption(ZmtpSocketOption.AUTHENTICATOR, DefaultZmtpAuthenticator.builder().curveAnyKey().build());
                return "curve-client:" + keys.publicKeyZ85();
            }
            default -> {
                return "null";
            }
        }
    }

    private static List<String> receive(ZmtpSocket s) {
        ZmtpMessage m = s.receive(WAIT);
        assertThat(m).as("a message from libzmq").isNotNull();
        try {
            return m.toStrings();
        } finally {
            m.release();
        }
    }
}
