package io.zmtp.interop;

import static io.zmtp.testkit.TestTimeouts.scaled;
import static io.zmtp.testkit.TestTimeouts.scaledSeconds;
import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;
import zmq.Msg;

/**
 * A foreign peer with the thread-safe (draft) socket types for {@code ThreadSafeInteropIT}, driven by one-line
 * commands answered in order: the protocol of {@code src/test/node/draft_peer.mjs}, whose header lists the commands.
 * Two implementations: libzmq 4.3.5 with drafts (a Node.js process running zeromq.js, the only libzmq with drafts we
 * can install: Debian's and pyzmq's wheel have none) and JeroMQ 0.6.0 (a thread in this JVM interpreting the same
 * commands). A long command ({@code echo}, {@code drain}) is {@link #submit submitted} and its {@link #reply}
 * collected while the test drives our side.
 */
abstract class DraftPeer implements AutoCloseable {
    static final Duration REPLY_WAIT = scaled(Duration.ofSeconds(20));

    enum Kind {
        LIBZMQ, JEROMQ;

        DraftPeer start() {
            return this == LIBZMQ ? new Node() : new JeroMq();
        }

        /**
         * Whether the peer has ipc as libzmq means it (a Unix domain socket). JeroMQ 0.6.0's ipc:// is tcp on the
         * loopback at a port hashed from the name (zmq.io.net.ipc.IpcAddress), which no other implementation speaks.
         */
        boolean hasIpc() {
            return this == LIBZMQ;
        }

        /**
         * Whether the peer can drive PEER fully. zeromq.js 6.8.0 has neither zmq_connect_peer nor a routing id on a
         * PEER's messages (its native send and receive attach one for type SERVER only), so its PEER receives but
         * can't send (libzmq: EHOSTUNREACH) and can't connect with an id.
         */
        boolean hasFullPeer() {
            return this == JEROMQ;
        }

        @Override
        public String toString() {
            return this == LIBZMQ ? "libzmq" : "JeroMQ";
        }
    }

    @Override
    public abstract void close();

    /** "libzmq 4.3.5 (zeromq.js 6.8.0)" or "JeroMQ 0.6.0". */
    abstract String version();

    abstract void submit(String command);

    abstract String reply(Duration timeout);

    /** What the peer said on stderr, for failure messages (empty for JeroMQ). */
    String diagnostics() {
        return "";
    }

    String call(String command) {
        submit(command);
        return reply(REPLY_WAIT);
    }

    /** Runs {@code command} and returns what follows "OK"; fails the test on any other answer. */
    String ok(String command) {
        String answer = call(command);
        if (!answer.equals("OK") && !answer.startsWith("OK ")) {
            throw new AssertionError(this + ": `" + command + "` answered `" + answer + "`" + diagnostics());
        }
        return answer.substring(2).strip();
    }

    /** Takes a submitted command's answer, which must be OK; returns what follows "OK". */
    String okReply(String what) {
        String answer = reply(REPLY_WAIT);
        if (!answer.startsWith("OK")) {
            throw new AssertionError(this + ": " + what + " answered `" + answer + "`" + diagnostics());
        }
        return answer.substring(2).strip();
    }

    /** "key=value" fields of an answer, e.g. {@code n=6 rids=1,2}. */
    static Map<String, String> fields(String answer) {
        Map<String, String> m = new HashMap<>();
        for (String token : answer.split(" ")) {
            int eq = token.indexOf('=');
            if (eq > 0) {
                m.put(token.substring(0, eq), token.substring(eq + 1));
            }
        }
        return m;
    }

    /** libzmq through zeromq.js: one {@code node draft_peer.mjs} process per peer. */
    static final class Node extends DraftPeer {
        static final String DIR_PROPERTY = "zmtp.interop.node";
        static final String SCRIPTS_PROPERTY = "zmtp.interop.nodeScripts";
        private static volatile String version;
        // Compared by identity: no line the peer prints can be mistaken for it.
        @SuppressWarnings("StringOperationCanBeSimplified")
        private static final String EOF = new String("<eof>");
        private final Process process;
        private final BlockingQueue<String> stdout = new LinkedBlockingQueue<>();
        private final StringBuffer stderr = new StringBuffer();

        Node() {
            this(List.of());
        }

        /** A peer started behind {@code prefix}, e.g. {@code ip netns exec NAME} to run it in a network namespace. */
        Node(List<String> prefix) {
            // A missing zeromq.js is a failure with directions, never a skip: a skipped interop suite looks green.
            Path dir = Path.of(System.getProperty(DIR_PROPERTY, "target/node")).toAbsolutePath();
            Path script = Path.of(System.getProperty(SCRIPTS_PROPERTY, "src/test/node"), "draft_peer.mjs")
                    .toAbsolutePath();
            if (!Files.isDirectory(dir.resolve("node_modules/zeromq"))) {
                throw new AssertionError("No zeromq.js in " + dir + " (system property " + DIR_PROPERTY + "). The build"
                        + " installs it (`./mvnw -pl zmtp-interop verify` runs src/test/node/setup-node.sh); by hand:"
                        + " `npm install --prefix " + dir + " zeromq@6.8.0` (needs Node.js 18+ and npm).");
            }
            List<String> command = new java.util.ArrayList<>(prefix);
            command.addAll(List.of("node", script.toString(), dir.toString(), "90"));
            try {
                process = new ProcessBuilder(command).start();
            } catch (IOException e) {
                throw new AssertionError("Cannot start " + command + " (is Node.js on the PATH?)", e);
            }
            pump(process.getInputStream(), stdout::add, () -> stdout.add(EOF));
            pump(process.getErrorStream(), line -> stderr.append(line).append('\n'), () -> {});
        }

        private static void pump(InputStream in, Consumer<String> onLine, Runnable onEof) {
            Thread t = new Thread(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(in, UTF_8))) {
                    for (String line; (line = r.readLine()) != null; ) {
                        onLine.accept(line);
                    }
                } catch (IOException ignored) {
                    // Destroyed; what it printed is kept.
                } finally {
                    onEof.run();
                }
            }, "draft-peer-node-output");
            t.setDaemon(true);
            t.start();
        }

        @Override
        String version() {
            String v = version;
            if (v == null) {
                // "4.3.5 zeromq.js 6.8.0 draft=true"
                String[] f = ok("version").split(" ");
                if (!f[3].equals("draft=true")) {
                    throw new AssertionError("zeromq.js without the draft API: " + String.join(" ", f));
                }
                v = version = "libzmq " + f[0] + " (zeromq.js " + f[2] + ", drafts)";
            }
            return v;
        }

        @Override
        void submit(String command) {
            try {
                process.getOutputStream().write((command + "\n").getBytes(UTF_8));
                process.getOutputStream().flush();
            } catch (IOException e) {
                throw new AssertionError("draft_peer.mjs gone before `" + command + "`" + diagnostics(), e);
            }
        }

        @Override
        String reply(Duration timeout) {
            String line;
            try {
                line = stdout.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted", e);
            }
            if (line == null) {
                throw new AssertionError("draft_peer.mjs: no answer within " + timeout + diagnostics());
            }
            if (line == EOF) {
                stdout.add(EOF);
                throw new AssertionError("draft_peer.mjs exited" + diagnostics());
            }
            return line;
        }

        @Override
        String diagnostics() {
            String err = stderr.toString().strip();
            return err.isEmpty() ? "" : "; its stderr:\n" + err;
        }

        @Override
        public void close() {
            try {
                submit("exit");
                process.getOutputStream().close();
            } catch (AssertionError | IOException ignored) {
                // Already gone.
            }
            try {
                if (!process.waitFor(scaledSeconds(5), TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(scaledSeconds(5), TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
            }
        }

        @Override
        public String toString() {
            return "libzmq peer";
        }
    }

    /** JeroMQ in this JVM: the commands run one after the other on one thread, as the Node peer runs them. */
    static final class JeroMq extends DraftPeer {
        private final ZContext context = new ZContext(1);
        private final Map<String, ZMQ.Socket> sockets = new HashMap<>();
        private final ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "draft-peer-jeromq");
            t.setDaemon(true);
            return t;
        });
        private final ArrayDeque<Future<String>> pending = new ArrayDeque<>();

        @Override
        String version() {
            return io.zmtp.interop.JeroMq.version();
        }

        @Override
        void submit(String command) {
            pending.add(thread.submit(() -> {
                try {
                    return run(command.strip().split("\\s+"));
                } catch (RuntimeException e) {
                    return "ERR EXCEPTION " + e;
                }
            }));
        }

        @Override
        String reply(Duration timeout) {
            Future<String> f = pending.poll();
            if (f == null) {
                throw new AssertionError("JeroMQ peer: no command pending");
            }
            try {
                return f.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted", e);
            } catch (ExecutionException | TimeoutException e) {
                throw new AssertionError("JeroMQ peer: no answer within " + timeout, e);
            }
        }

        private ZMQ.Socket sock(String name) {
            ZMQ.Socket s = sockets.get(name);
            if (s == null) {
                throw new IllegalArgumentException("no socket " + name);
            }
            return s;
        }

        private String run(String[] a) {
            switch (a[0]) {
                case "new": {
                    ZMQ.Socket s = context.createSocket(SocketType.valueOf(a[2]));
                    s.setSendTimeOut(5_000);
                    s.setLinger(1_000);
                    s.setHandshakeIvl(io.zmtp.interop.JeroMq.HANDSHAKE_IVL_MILLIS);
                    sockets.put(a[1], s);
                    return "OK";
                }
                case "bind":
                    return sock(a[1]).bind(a[2]) ? "OK " + sock(a[1]).getLastEndpoint() : err(sock(a[1]));
                case "connect":
                    return sock(a[1]).connect(a[2]) ? "OK" : err(sock(a[1]));
                case "connectpeer": {
                    int id = sock(a[1]).connectPeer(a[2]);
                    return id != 0 ? "OK " + Integer.toUnsignedString(id) : err(sock(a[1]));
                }
                case "join":
                    return sock(a[1]).join(a[2]) ? "OK" : err(sock(a[1]));
                case "leave":
                    return sock(a[1]).leave(a[2]) ? "OK" : err(sock(a[1]));
                case "send": {
                    Msg msg = new Msg(a[2].getBytes(UTF_8));
                    for (int i = 3; i < a.length; i++) {
                        if (a[i].startsWith("rid=")) {
                            msg.setRoutingId(Integer.parseUnsignedInt(a[i].substring(4)));
                        } else if (a[i].startsWith("group=")) {
                            msg.setGroup(a[i].substring(6));
                        } else {
                            throw new IllegalArgumentException("unknown send option " + a[i]);
                        }
                    }
                    return sock(a[1]).sendMsg(msg) ? "OK" : err(sock(a[1]));
                }
                case "sendn": {
                    for (int i = 0; i < Integer.parseInt(a[2]); i++) {
                        if (!sock(a[1]).send(a[3] + "-" + i)) {
                            return err(sock(a[1]));
                        }
                    }
                    return "OK sent=" + a[2];
                }
                case "recv": {
                    Msg m = receive(sock(a[1]), Integer.parseInt(a[2]));
                    return m == null ? "NONE" : describe(sock(a[1]), m);
                }
                case "echo":
                    return echo(sock(a[1]), Integer.parseInt(a[2]), Integer.parseInt(a[3]));
                case "drain":
                    return drain(sock(a[1]), Integer.parseInt(a[2]));
                case "poke":
                    // As libzmq: reading the events applies the socket's pending commands (an accepted pipe's attach).
                    sock(a[1]).getEvents();
                    return "OK";
                case "close":
                    context.destroySocket(sockets.remove(a[1]));
                    return "OK";
                case "exit":
                    return "OK";
                default:
                    return "ERR EINVAL unknown command " + a[0];
            }
        }

        private static Msg receive(ZMQ.Socket s, int millis) {
            s.setReceiveTimeOut(millis);
            return s.recvMsg(0);
        }

        private static boolean routes(ZMQ.Socket s) {
            return s.getSocketType() == SocketType.SERVER || s.getSocketType() == SocketType.PEER;
        }

        private static String describe(ZMQ.Socket s, Msg m) {
            StringBuilder b = new StringBuilder("MSG ").append(new String(m.data(), UTF_8));
            if (routes(s)) {
                b.append(" rid=").append(Integer.toUnsignedString(m.getRoutingId()));
            }
            if (s.getSocketType() == SocketType.DISH) {
                b.append(" group=").append(m.getGroup());
            }
            return b.toString();
        }

        private static String echo(ZMQ.Socket s, int count, int millis) {
            List<String> rids = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                Msg m = receive(s, millis);
                if (m == null) {
                    return "ERR EAGAIN nothing received within " + millis + " ms after " + i + " messages";
                }
                Msg back = new Msg(m.data());
                if (routes(s)) {
                    String rid = Integer.toUnsignedString(m.getRoutingId());
                    if (!rids.contains(rid)) {
                        rids.add(rid);
                    }
                    back.setRoutingId(m.getRoutingId());
                }
                if (!s.sendMsg(back)) {
                    return err(s);
                }
            }
            return "OK n=" + count + " rids=" + String.join(",", rids);
        }

        private static String drain(ZMQ.Socket s, int idle) {
            List<String> bodies = new ArrayList<>();
            for (Msg m; (m = receive(s, idle)) != null; ) {
                String body = new String(m.data(), UTF_8);
                bodies.add(s.getSocketType() == SocketType.DISH ? m.getGroup() + ":" + body : body);
            }
            return "OK n=" + bodies.size() + " bodies=" + String.join(",", bodies);
        }

        private static String err(ZMQ.Socket s) {
            int errno = s.errno();
            return "ERR " + ZMQ.Error.findByCode(errno) + " errno " + errno;
        }

        @Override
        public void close() {
            try {
                thread.submit(() -> {
                    sockets.values().forEach(context::destroySocket);
                    sockets.clear();
                }).get(scaledSeconds(10), TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException | TimeoutException ignored) {
                // The context's close below still ends what it can.
            }
            thread.shutdownNow();
            context.close();
        }

        @Override
        public String toString() {
            return "JeroMQ peer";
        }
    }
}
