package io.zmtp.interop;

import static io.zmtp.testkit.TestTimeouts.scaled;
import static io.zmtp.testkit.TestTimeouts.scaledMillis;
import static io.zmtp.testkit.TestTimeouts.scaledSeconds;
import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.US_ASCII;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/**
 * A foreign ZeroMQ peer for the {@code Socket*IT} tests: any number of named sockets, driven by one-line commands
 * that are answered in order (the protocol of {@code src/test/python/socket_peer.py}, whose docstring lists the
 * commands). Two implementations: libzmq (one Python process with pyzmq per peer) and JeroMQ (one thread in this JVM
 * interpreting the same commands). Commands run one after the other on the peer, so a long one ({@code echo},
 * {@code recvseq}) is {@link #submit submitted} and its {@link #reply} collected later while the test drives our
 * side.
 */
abstract class SocketPeer implements AutoCloseable {
    static final Duration REPLY_WAIT = scaled(Duration.ofSeconds(20));
    private static final HexFormat HEX = HexFormat.of();
    /** The payload pattern of socket_peer.py: payload(seq) = PATTERN[seq % 251 .. + (seq * 7) % 200]. */
    private static final byte[] PATTERN = new byte[512];

    static {
        for (int j = 0; j < PATTERN.length; j++) {
            PATTERN[j] = (byte) (j % 251);
        }
    }

    /** Which implementation. */
    enum Kind {
        LIBZMQ, JEROMQ;

        SocketPeer start() {
            return this == LIBZMQ ? new Libzmq() : new JeroMqPeer();
        }

        @Override
        public String toString() {
            return this == LIBZMQ ? "libzmq" : "JeroMQ";
        }
    }

    @Override
    public abstract void close();

    /** Ends the peer abruptly, as a crash would: its connections go away without a goodbye. */
    void kill() {
        close();
    }

    /** "libzmq 4.3.5 (pyzmq 27.3.0)" or "JeroMQ 0.6.0 (ZMQ version ...)". */
    abstract String version();

    /** Starts {@code command}; its answer is the next {@link #reply} not yet taken. */
    abstract void submit(String command);

    /** The answer to the oldest submitted command not yet answered; fails after {@code timeout}. */
    abstract String reply(Duration timeout);

    String call(String command) {
        submit(command);
        return reply(REPLY_WAIT);
    }

    /** Calls and fails unless the answer is OK; returns what follows "OK ". */
    String ok(String command) {
        return expectOk(command, call(command));
    }

    static String expectOk(String command, String reply) {
        if (!reply.equals("OK") && !reply.startsWith("OK ")) {
            throw new AssertionError("peer command `" + abbreviate(command) + "` answered: " + reply);
        }
        return reply.length() > 3 ? reply.substring(3) : "";
    }

    private static String abbreviate(String s) {
        return s.length() > 200 ? s.substring(0, 200) + "..." : s;
    }

    // ------------------------------------------------------------------------------------------- encoding

    static String hex(byte[] frame) {
        return frame.length == 0 ? "-" : HEX.formatHex(frame);
    }

    static String hex(List<byte[]> frames) {
        StringBuilder sb = new StringBuilder();
        for (byte[] f : frames) {
            sb.append(sb.length() == 0 ? "" : " ").append(hex(f));
        }
        return sb.toString();
    }

    static byte[] unhex(String token) {
        return token.equals("-") ? new byte[0] : HEX.parseHex(token);
    }

    /** The frames of a "MSG ..." answer, or null for "NONE". */
    static List<byte[]> frames(String reply) {
        if (reply.equals("NONE")) {
            return null;
        }
        if (!reply.startsWith("MSG")) {
            throw new AssertionError("expected MSG or NONE, got: " + reply);
        }
        List<byte[]> frames = new ArrayList<>();
        for (String t : reply.substring(3).trim().split(" ")) {
            if (!t.isEmpty()) {
                frames.add(unhex(t));
            }
        }
        return frames;
    }

    static byte[] payload(long seq) {
        int start = (int) (seq % 251);
        return Arrays.copyOfRange(PATTERN, start, start + (int) ((seq * 7) % 200));
    }

    /** Null if {@code frames} is [tag, seq, payload(seq)], else what is wrong. */
    static String check(List<byte[]> frames, byte[] tag, long seq) {
        if (frames.size() != 3 || !Arrays.equals(frames.get(0), tag)) {
            return "message " + seq + ": " + frames.size() + " frames, first " + text(frames.get(0));
        }
        if (!text(frames.get(1)).equals(Long.toString(seq))) {
            return "expected seq " + seq + ", got " + text(frames.get(1));
        }
        if (!Arrays.equals(frames.get(2), payload(seq))) {
            return "message " + seq + ": payload of " + frames.get(2).length + " bytes differs";
        }
        return null;
    }

    static String text(byte[] b) {
        return new String(b, ISO_8859_1);
    }

    static byte[] bytes(String s) {
        return s.getBytes(ISO_8859_1);
    }

    // ------------------------------------------------------------------------------------------- libzmq

    /** libzmq through pyzmq: one socket_peer.py process. */
    static final class Libzmq extends SocketPeer {
        private final PyZmq.Peer process;
        private final String version;

        Libzmq() {
            PyZmq.Versions v = PyZmq.versions();
            version = "libzmq " + v.libzmq() + " (pyzmq " + v.pyzmq() + ")";
            process = PyZmq.startInteractive("socket_peer.py", "150");
        }

        @Override
        String version() {
            return version;
        }

        @Override
        void submit(String command) {
            process.writeLine(command);
        }

        @Override
        String reply(Duration timeout) {
            return process.readLine(timeout);
        }

        /** Kills the process (its sockets vanish with it, as when a service crashes). */
        @Override
        void kill() {
            process.close();
        }

        @Override
        public void close() {
            try {
                process.writeLine("exit");
                process.awaitExit(Duration.ofSeconds(5));
            } catch (AssertionError e) {
                // Already dead or stuck: close() below ends it.
            } finally {
                process.close();
            }
        }
    }

    // ------------------------------------------------------------------------------------------- JeroMQ

    /** JeroMQ sockets, all on one thread (a JeroMQ socket belongs to one thread), running the same commands. */
    static final class JeroMqPeer extends SocketPeer {
        private static final int SEND_TIMEOUT_MS = (int) scaledMillis(5000);
        /** 500 ms; {@link ZmtpJeromqPeer} runs this peer on zmtp-jeromq with JeroMQ's default instead (property). */
        static final int JEROMQ_HANDSHAKE_IVL_MS = Integer.getInteger("zmtp.interop.jeromqHandshakeIvl", 500);
        private final ZContext context = new ZContext(1);
        private JeromqZapHandler zap;
        private final Map<String, ZMQ.Socket> sockets = new HashMap<>();
        private final ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "jeromq-socket-peer");
            t.setDaemon(true);
            return t;
        });
        private final ArrayDeque<Future<String>> pending = new ArrayDeque<>();

        @Override
        String version() {
            return JeroMq.version();
        }

        @Override
        synchronized void submit(String command) {
            pending.add(thread.submit(() -> {
                try {
                    return execute(command.trim().split(" +"));
                } catch (Exception e) {
                    return "ERR " + e;
                }
            }));
        }

        @Override
        String reply(Duration timeout) {
            Future<String> f;
            synchronized (this) {
                f = pending.poll();
            }
            if (f == null) {
                throw new AssertionError("no JeroMQ command pending");
            }
            try {
                return f.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                throw new AssertionError("JeroMQ peer: no answer within " + timeout);
            } catch (ExecutionException e) {
                throw new AssertionError("JeroMQ peer failed", e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted", e);
            }
        }

        private ZMQ.Socket sock(String name) {
            ZMQ.Socket s = sockets.get(name);
            if (s == null) {
                throw new IllegalArgumentException("no socket " + name);
            }
            return s;
        }

        private static List<byte[]> recv(ZMQ.Socket s, int millis) {
            s.setReceiveTimeOut(millis);
            byte[] first = s.recv(0);
            if (first == null) {
                return null;
            }
            List<byte[]> frames = new ArrayList<>();
            frames.add(first);
            while (s.hasReceiveMore()) {
                frames.add(s.recv(0));
            }
            return frames;
        }

        private static boolean send(ZMQ.Socket s, List<byte[]> frames) {
            for (int i = 0; i < frames.size(); i++) {
                if (!s.send(frames.get(i), i < frames.size() - 1 ? ZMQ.SNDMORE : 0)) {
                    return false;
                }
            }
            return true;
        }

        private static List<byte[]> seqMessage(byte[] tag, long seq) {
            return List.of(tag, Long.toString(seq).getBytes(US_ASCII), payload(seq));
        }

        private String execute(String[] w) {
            switch (w[0]) {
                case "version":
                    return "OK " + JeroMq.version().replace(' ', '_');
                case "new": {
                    ZMQ.Socket s = context.createSocket(SocketType.valueOf(w[2]));
                    s.setSendTimeOut(SEND_TIMEOUT_MS);
                    s.setLinger(1000);
                    // JeroMQ 0.6.0 bug: a few % of its fresh outgoing connections complete the TCP connect but never
                    // send a greeting (Poller connect hand-off race, zeromq/jeromq PR #1022); only its handshake
                    // timer (30 s by default) ends them. A short one keeps the tests about us.
                    s.setHandshakeIvl(JEROMQ_HANDSHAKE_IVL_MS);
                    for (int i = 3; i < w.length; i++) {
                        String key = w[i].substring(0, w[i].indexOf('='));
                        String value = w[i].substring(w[i].indexOf('=') + 1);
                        switch (key) {
                            case "sndhwm" -> s.setSndHWM(Integer.parseInt(value));
                            case "rcvhwm" -> s.setRcvHWM(Integer.parseInt(value));
                            case "rcvbuf" -> s.setReceiveBufferSize(Integer.parseInt(value));
                            case "sndbuf" -> s.setSendBufferSize(Integer.parseInt(value));
                            case "linger" -> s.setLinger(Integer.parseInt(value));
                            case "id" -> s.setIdentity(unhex(value));
                            case "sub" -> s.subscribe(unhex(value));
                            case "verbose" -> s.setXpubVerbose(value.equals("1"));
                            case "plain_server" -> s.setPlainServer(value.equals("1"));
                            case "plain_username" -> s.setPlainUsername(value);
                            case "plain_password" -> s.setPlainPassword(value);
                            case "curve_server" -> s.setCurveServer(value.equals("1"));
                            case "curve_publickey" -> s.setCurvePublicKey(ZMQ.Curve.z85Decode(value));
                            case "curve_secretkey" -> s.setCurveSecretKey(ZMQ.Curve.z85Decode(value));
                            case "curve_serverkey" -> s.setCurveServerKey(ZMQ.Curve.z85Decode(value));
                            case "zap_domain" -> s.setZAPDomain(value);
                            default -> throw new IllegalArgumentException("unknown option " + w[i]);
                        }
                    }
                    sockets.put(w[1], s);
                    return "OK";
                }
                case "bind": {
                    ZMQ.Socket s = sock(w[1]);
                    if (w[2].endsWith(":*")) {
                        int port = s.bindToRandomPort(w[2].substring(0, w[2].length() - 2));
                        return "OK " + w[2].substring(0, w[2].length() - 1) + port;
                    }
                    if (!s.bind(w[2])) {
                        return "ERR bind " + w[2] + " failed";
                    }
                    return "OK " + s.getLastEndpoint();
                }
                case "connect":
                    return sock(w[1]).connect(w[2]) ? "OK" : "ERR connect " + w[2] + " failed";
                case "send": {
                    List<byte[]> frames = new ArrayList<>();
                    for (int i = 2; i < w.length; i++) {
                        frames.add(unhex(w[i]));
                    }
                    return send(sock(w[1]), frames) ? "OK" : "ERR send timed out after " + SEND_TIMEOUT_MS + " ms";
                }
                case "recv": {
                    List<byte[]> frames = recv(sock(w[1]), Integer.parseInt(w[2]));
                    return frames == null ? "NONE" : ("MSG " + hex(frames)).trim();
                }
                case "sub":
                    sock(w[1]).subscribe(unhex(w[2]));
                    return "OK";
                case "unsub":
                    sock(w[1]).unsubscribe(unhex(w[2]));
                    return "OK";
                case "sendseq": {
                    ZMQ.Socket s = sock(w[1]);
                    long count = Long.parseLong(w[2]);
                    byte[] tag = bytes(w[3]);
                    for (long seq = 0; seq < count; seq++) {
                        if (!send(s, seqMessage(tag, seq))) {
                            return "ERR send " + seq + " timed out after " + SEND_TIMEOUT_MS + " ms";
                        }
                    }
                    return "OK sent=" + count;
                }
                case "recvseq": {
                    ZMQ.Socket s = sock(w[1]);
                    long count = Long.parseLong(w[2]);
                    byte[] tag = bytes(w[3]);
                    int millis = Integer.parseInt(w[4]);
                    long seq = 0;
                    long ignored = 0;
                    while (seq < count) {
                        List<byte[]> frames = recv(s, millis);
                        if (frames == null) {
                            return "ERR nothing for " + millis + " ms after " + seq + " messages";
                        }
                        if (frames.size() < 3 || !Arrays.equals(frames.get(frames.size() - 3), tag)) {
                            ignored++;
                            continue;
                        }
                        String error = check(frames.subList(frames.size() - 3, frames.size()), tag, seq);
                        if (error != null) {
                            return "ERR " + error;
                        }
                        seq++;
                    }
                    return "OK received=" + seq + " ignored=" + ignored;
                }
                case "echo": {
                    ZMQ.Socket s = sock(w[1]);
                    long count = Long.parseLong(w[2]);
                    int millis = Integer.parseInt(w[3]);
                    for (long i = 0; i < count; i++) {
                        List<byte[]> frames = recv(s, millis);
                        if (frames == null) {
                            return "ERR nothing for " + millis + " ms after " + i + " messages";
                        }
                        if (!send(s, frames)) {
                            return "ERR echo " + i + " timed out";
                        }
                    }
                    return "OK echoed=" + count;
                }
                case "stream": {
                    ZMQ.Socket s = sock(w[1]);
                    long count = Long.parseLong(w[2]);
                    int window = Integer.parseInt(w[3]);
                    byte[] tag = bytes(w[4]);
                    int millis = Integer.parseInt(w[5]);
                    long sent = 0;
                    long received = 0;
                    while (received < count) {
                        while (sent < count && sent - received < window) {
                            if (!send(s, seqMessage(tag, sent))) {
                                return "ERR send " + sent + " timed out";
                            }
                            sent++;
                        }
                        List<byte[]> frames = recv(s, millis);
                        if (frames == null) {
                            return "ERR no echo for " + millis + " ms after " + received + " of " + sent + " sent";
                        }
                        String error = check(frames.subList(Math.max(0, frames.size() - 3), frames.size()), tag,
                                received);
                        if (error != null) {
                            return "ERR " + error;
                        }
                        received++;
                    }
                    return "OK streamed=" + count;
                }
                case "drain": {
                    ZMQ.Socket s = sock(w[1]);
                    int idle = Integer.parseInt(w[2]);
                    int skip = w.length > 3 ? Integer.parseInt(w[3]) : 0;
                    long max = w.length > 4 ? Long.parseLong(w[4]) : -1;
                    Map<String, Integer> counts = new TreeMap<>();
                    Map<String, Long> last = new HashMap<>();
                    long total = 0;
                    for (List<byte[]> frames; total != max && (frames = recv(s, idle)) != null; ) {
                        total++;
                        frames = frames.subList(skip, frames.size());
                        String tag = frames.get(0).length == 0 ? "-" : text(frames.get(0));
                        counts.merge(tag, 1, Integer::sum);
                        if (frames.size() >= 2 && text(frames.get(1)).matches("[0-9]+")) {
                            long seq = Long.parseLong(text(frames.get(1)));
                            Long before = last.put(tag, seq);
                            if (before != null && seq <= before) {
                                return "ERR tag " + tag + ": seq " + seq + " after " + before;
                            }
                        }
                    }
                    StringBuilder sb = new StringBuilder("OK total=" + total + " ");
                    counts.forEach((k, v) -> sb.append(k).append('=').append(v).append(' '));
                    return sb.toString().trim();
                }
                case "zap": {
                    zap = new JeromqZapHandler(Arrays.copyOfRange(w, 1, w.length));
                    zap.start(context);
                    return "OK";
                }
                case "zaplog":
                    return ("OK " + (zap == null ? "" : zap.log())).trim();
                case "close": {
                    ZMQ.Socket s = sockets.remove(w[1]);
                    s.setLinger(0);
                    context.destroySocket(s);
                    return "OK";
                }
                default:
                    throw new IllegalArgumentException("unknown command " + w[0]);
            }
        }

        private boolean closed;

        @Override
        public synchronized void close() {
            if (closed) {
                return;
            }
            closed = true;
            try {
                thread.submit(() -> {
                    for (ZMQ.Socket s : sockets.values()) {
                        s.setLinger(0);
                        context.destroySocket(s);
                    }
                    sockets.clear();
                }).get(scaledSeconds(10), TimeUnit.SECONDS);
            } catch (Exception e) {
                // A command still running (it has its own timeouts); the context close below ends it.
            }
            thread.shutdownNow();
            try {
                thread.awaitTermination(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            context.close();
        }
    }
}
