package io.zmtp.interop;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.ZmtpContext;
import io.zmtp.socket.ZmtpSocket;
import io.zmtp.socket.ZmtpSocketEvent;
import io.zmtp.socket.ZmtpSocketOption;
import io.zmtp.codec.security.CurveKeyPair;
import io.zmtp.codec.security.DefaultZmtpAuthenticator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

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

import static io.zmtp.testkit.TestTimeouts.scaled;
import static io.zmtp.testkit.TestTimeouts.scaledSeconds;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * ws:// (ZWS 2.0) against libzmq 4.3.5's ws transport, through npm's zeromq 6.8.0 (ws_peer.mjs): PUSH/PULL and
 * REQ/REP with NULL, our socket sending and theirs, each side binding in turn; PUSH/PULL with PLAIN and CURVE, each
 * side the server in turn; PUB/SUB both ways (subscriptions over ws). Multi-part messages check the MORE flag in
 * both directions; heartbeats both ways on an idle connection. Node and zeromq come from the build (setup-node.sh into
 * target/node, the same install as ThreadSafeInteropIT's); without them these tests fail, as the pyzmq ones do.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WsInteropIT {
    private static final Duration WAIT = scaled(Duration.ofSeconds(10));
    private static final int COUNT = 5;
    private static Path nodeDir;
    private static Path script;

    private ZmtpContext context;
    private final List<Process> peers = new ArrayList<>();

    @BeforeAll
    static void findNode() {
        nodeDir = Path.of(System.getProperty("zmtp.interop.node", "target/node")).toAbsolutePath();
        script = Path.of(System.getProperty("zmtp.interop.nodeScripts", "src/test/node"), "ws_peer.mjs")
                .toAbsolutePath();
        assertThat(nodeDir.resolve("node_modules/zeromq"))
                .as("npm's zeromq 6.8.0 in " + nodeDir + " (npm install --prefix " + nodeDir + " zeromq@6.8.0)")
                .isDirectory();
        assertThat(script).isRegularFile();
    }

    @BeforeEach
    void start() {
        context = ZmtpContext.builder().build();
    }

    @AfterEach
    void stop() {
        peers.forEach(Process::destroyForcibly);
        context.close();
    }

    /** A running ws_peer.mjs and the lines it prints. */
    private final class Peer {
        final Process process;
        final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

        Peer(String role, String endpoint, int count) throws IOException {
            this(role, endpoint, count, "null");
        }

        Peer(String role, String endpoint, int count, String mechanism) throws IOException {
            this(role, endpoint, count, mechanism, 0);
        }

        Peer(String role, String endpoint, int count, String mechanism, int heartbeatMillis) throws IOException {
            ProcessBuilder b = new ProcessBuilder("node", script.toString(), nodeDir.toString(), role, endpoint,
                    String.valueOf(count), mechanism).redirectError(ProcessBuilder.Redirect.INHERIT);
            if (heartbeatMillis > 0) {
                b.environment().put("WS_PEER_HEARTBEAT", String.valueOf(heartbeatMillis));
            }
            process = b.start();
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
            }, "ws-peer-" + role);
            reader.setDaemon(true);
            reader.start();
        }

        String next() throws InterruptedException {
            String l = lines.poll(WAIT.toSeconds(), TimeUnit.SECONDS);
            assertThat(l).as("a line from ws_peer.mjs").isNotNull();
            assertThat(l).doesNotStartWith("ERR");
            return l;
        }

        /** Binds or connects per its role; returns the endpoint to connect to (ours, or the one it bound). */
        String ready() throws InterruptedException {
            String l = next();
            return l.startsWith("BOUND ") ? l.substring("BOUND ".length()) : l;
        }

        void done() throws InterruptedException {
            assertThat(next()).isEqualTo("DONE");
            assertThat(process.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
            assertThat(process.exitValue()).isZero();
        }
    }

    /** Our socket and the peer: whichever binds, the other connects to what it bound. */
    private Peer connect(ZmtpSocket ours, String theirType, boolean weBind) throws Exception {
        if (weBind) {
            String endpoint = ours.bind("ws://127.0.0.1:*/zmtp");
            Peer peer = new Peer(theirType + "-connect", endpoint, COUNT);
            assertThat(peer.ready()).isEqualTo("READY");
            return peer;
        }
        Peer peer = new Peer(theirType + "-bind", "ws://127.0.0.1:*/zmtp", COUNT);
        String endpoint = peer.ready();
        assertThat(endpoint).startsWith("ws://127.0.0.1:").endsWith("/zmtp");
        ours.connect(endpoint);
        return peer;
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"PLAIN, we bind", "PLAIN, they bind", "CURVE, we bind", "CURVE, they bind"})
    void pushPullWithASecurityMechanism(String setup) throws Exception {
        boolean curve = setup.startsWith("CURVE");
        boolean weBind = setup.endsWith("we bind");
        if (weBind) {
            // Our PULL is the server: libzmq's PUSH the client.
            ZmtpSocket pull = context.socket(ZmtpSocketType.PULL);
            String mechanism;
            if (curve) {
                CurveKeyPair keys = CurveKeyPair.generate();
                pull.setOption(ZmtpSocketOption.CURVE_SERVER, true);
                pull.setOption(ZmtpSocketOption.CURVE_SECRETKEY, keys.secretKey());
                pull.setOption(ZmtpSocketOption.AUTHENTICATOR,
                        DefaultZmtpAuthenticator.builder().curveAnyKey().build());
                mechanism = "curve-client:" + keys.publicKeyZ85();
            } else {
                pull.setOption(ZmtpSocketOption.PLAIN_SERVER, true);
                pull.setOption(ZmtpSocketOption.AUTHENTICATOR,
                        DefaultZmtpAuthenticator.builder().plainUser("admin", "secret").build());
                mechanism = "plain-client:admin:secret";
            }
            String endpoint = pull.bind("ws://127.0.0.1:*/secure");
            Peer peer = new Peer("push-connect", endpoint, COUNT, mechanism);
            assertThat(peer.next()).isEqualTo("READY");
            for (int i = 0; i < COUNT; i++) {
                assertThat(receive(pull)).containsExactly("m" + i, "tail");
            }
            peer.done();
            return;
        }
        // libzmq's PULL is the server (PLAIN: its ZAP handler takes anyone; CURVE: any key): our PUSH the client.
        Peer peer = new Peer("pull-bind", "ws://127.0.0.1:*/secure", COUNT, curve ? "curve-server" : "plain-server");
        String[] bound = peer.next().split(" ");
        ZmtpSocket push = context.socket(ZmtpSocketType.PUSH);
        if (curve) {
            push.setOption(ZmtpSocketOption.CURVE_SERVERKEY, CurveKeyPair.decodeKey(bound[2], "server key"));
            push.setOption(ZmtpSocketOption.CURVE_SECRETKEY, CurveKeyPair.generate().secretKey());
        } else {
            push.setOption(ZmtpSocketOption.PLAIN_USERNAME, "admin");
            push.setOption(ZmtpSocketOption.PLAIN_PASSWORD, "secret");
        }
        push.connect(bound[1]);
        for (int i = 0; i < COUNT; i++) {
            push.send(ZmtpMessage.of("s" + i, "x"));
        }
        for (int i = 0; i < COUNT; i++) {
            assertThat(peer.next()).isEqualTo("MSG s" + i + "|x");
        }
        peer.done();
    }

    /**
     * Heartbeats both ways over an idle connection: each side PINGs every 100 ms and gives up after 300 ms without
     * traffic, so a PING either side doesn't answer (or a PONG it doesn't understand) ends the connection well
     * within the idle second.
     */
    @org.junit.jupiter.api.Test
    void heartbeatsKeepAnIdleConnection() throws Exception {
        ZmtpSocket req = context.socket(ZmtpSocketType.REQ);
        req.setOption(ZmtpSocketOption.HEARTBEAT_IVL, 100);
        req.setOption(ZmtpSocketOption.HEARTBEAT_TIMEOUT, 300);
        BlockingQueue<ZmtpSocketEvent> events = new LinkedBlockingQueue<>();
        req.monitor(events::add);
        String endpoint = req.bind("ws://127.0.0.1:*/");
        Peer peer = new Peer("rep-connect", endpoint, 1, "null", 100);
        assertThat(peer.next()).isEqualTo("READY");
        for (ZmtpSocketEvent e; (e = events.poll(scaledSeconds(10), TimeUnit.SECONDS)) == null
                || e.type() != ZmtpSocketEvent.Type.HANDSHAKE_SUCCEEDED; ) {
            assertThat(e).as("HANDSHAKE_SUCCEEDED").isNotNull();
        }
        Thread.sleep(1500);
        assertThat(events).noneMatch(e -> e.type() == ZmtpSocketEvent.Type.DISCONNECTED);
        req.send(ZmtpMessage.of("late"));
        assertThat(peer.next()).isEqualTo("MSG late");
        assertThat(receive(req)).containsExactly("re:late");
        peer.done();
    }

    /** libzmq's SUB connects to our PUB: its subscription must reach us over ws and filter what we publish. */
    @org.junit.jupiter.api.Test
    void theirSubToOurPub() throws Exception {
        ZmtpSocket pub = context.socket(ZmtpSocketType.PUB);
        String endpoint = pub.bind("ws://127.0.0.1:*/");
        Peer peer = new Peer("sub-connect", endpoint, COUNT);
        assertThat(peer.next()).isEqualTo("READY");
        List<String> got = new ArrayList<>();
        for (int n = 0; got.size() < COUNT && n < 500; n++) {
            pub.send(ZmtpMessage.of("B-" + n));
            pub.send(ZmtpMessage.of("A-" + n));
            Thread.sleep(20);
            for (String l; (l = peer.lines.poll()) != null; ) {
                if (l.startsWith("MSG ")) {
                    got.add(l);
                }
            }
        }
        assertThat(got).hasSize(COUNT).allSatisfy(l -> assertThat(l).startsWith("MSG A-"));
    }

    /** Our SUB connects to libzmq's PUB: our subscription reaches libzmq, which filters. */
    @org.junit.jupiter.api.Test
    void ourSubToTheirPub() throws Exception {
        Peer peer = new Peer("pub-bind", "ws://127.0.0.1:*/", COUNT);
        String endpoint = peer.ready();
        ZmtpSocket sub = context.socket(ZmtpSocketType.SUB);
        sub.setOption(ZmtpSocketOption.SUBSCRIBE, "A".getBytes(StandardCharsets.US_ASCII));
        sub.connect(endpoint);
        for (int i = 0; i < COUNT; i++) {
            assertThat(receive(sub).get(0)).startsWith("A-");
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

    @ParameterizedTest(name = "we bind: {0}")
    @ValueSource(booleans = {true, false})
    void ourPushToTheirPull(boolean weBind) throws Exception {
        ZmtpSocket push = context.socket(ZmtpSocketType.PUSH);
        Peer peer = connect(push, "pull", weBind);
        for (int i = 0; i < COUNT; i++) {
            // Over 255 bytes for one: a long frame on our side, a 16-bit WebSocket length on the wire.
            push.send(ZmtpMessage.of("p" + i, i == 2 ? "z".repeat(300) : ""));
        }
        for (int i = 0; i < COUNT; i++) {
            assertThat(peer.next()).isEqualTo("MSG p" + i + "|" + (i == 2 ? "z".repeat(300) : ""));
        }
        peer.done();
    }

    @ParameterizedTest(name = "we bind: {0}")
    @ValueSource(booleans = {true, false})
    void theirPushToOurPull(boolean weBind) throws Exception {
        ZmtpSocket pull = context.socket(ZmtpSocketType.PULL);
        Peer peer = connect(pull, "push", weBind);
        for (int i = 0; i < COUNT; i++) {
            assertThat(receive(pull)).containsExactly("m" + i, "tail");
        }
        peer.done();
    }

    @ParameterizedTest(name = "we bind: {0}")
    @ValueSource(booleans = {true, false})
    void ourReqToTheirRep(boolean weBind) throws Exception {
        ZmtpSocket req = context.socket(ZmtpSocketType.REQ);
        Peer peer = connect(req, "rep", weBind);
        for (int i = 0; i < COUNT; i++) {
            req.send(ZmtpMessage.of("ask" + i));
            assertThat(peer.next()).isEqualTo("MSG ask" + i);
            assertThat(receive(req)).containsExactly("re:ask" + i);
        }
        peer.done();
    }

    @ParameterizedTest(name = "we bind: {0}")
    @ValueSource(booleans = {true, false})
    void theirReqToOurRep(boolean weBind) throws Exception {
        ZmtpSocket rep = context.socket(ZmtpSocketType.REP);
        Peer peer = connect(rep, "req", weBind);
        for (int i = 0; i < COUNT; i++) {
            assertThat(receive(rep)).containsExactly("q" + i);
            rep.send(ZmtpMessage.of("a" + i));
            assertThat(peer.next()).isEqualTo("MSG a" + i);
        }
        peer.done();
    }
}
