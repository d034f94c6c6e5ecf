package io.zmtp.tools.cat;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.socket.ZmtpContext;
import io.zmtp.socket.ZmtpSocketException;
import io.zmtp.socket.ZmtpSocketOption;
import io.zmtp.socket.ZmtpSocket;
import io.zmtp.tools.SecurityOptions;
import io.zmtp.tools.SocketTypeConverter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;

/**
 * A ZeroMQ socket on the command line: each stdin line is sent as a message, each received message is printed.
 */
@Command(name = "cat", mixinStandardHelpOptions = true,
        description = {"A ZeroMQ socket of any type on the command line, to poke at a running system.",
            "Each stdin line is sent as one message (frames split on the delimiter); each message received is printed "
                    + "on one line (frames joined by the delimiter). Bytes outside printable ASCII, and '\\', are "
                    + "shown as \\xNN and may be typed that way (e.g. a ROUTER's routing id).",
            "The thread-safe types send and receive one part: a line is never split. SERVER and PEER print "
                    + "ID|body, ID being the sender's routing id in decimal, and a line ID|body sends body to that "
                    + "peer (an unknown ID is reported and the line skipped). A RADIO line is GROUP|body; a DISH "
                    + "prints GROUP|body for the groups it --join'ed. In these, everything after the first delimiter "
                    + "is the body, delimiters included. A CLIENT, SCATTER, GATHER or CHANNEL line is sent as it "
                    + "is, '|' and all, as one frame."})
public final class CatCommand implements Callable<Integer> {
    /** Types that never send: no stdin is read. */
    private static final Set<ZmtpSocketType> RECEIVE_ONLY =
            EnumSet.of(ZmtpSocketType.SUB, ZmtpSocketType.PULL, ZmtpSocketType.DISH, ZmtpSocketType.GATHER);

    /** Types that never receive: the command ends with stdin. */
    private static final Set<ZmtpSocketType> SEND_ONLY =
            EnumSet.of(ZmtpSocketType.PUB, ZmtpSocketType.PUSH, ZmtpSocketType.RADIO, ZmtpSocketType.SCATTER);


    @Option(names = {"-t", "--type"}, required = true, description = "Socket type: REQ, REP, DEALER, ROUTER, PUB, "
            + "SUB, XPUB, XSUB, PUSH, PULL, PAIR, or a thread-safe one: CLIENT, SERVER, RADIO, DISH, SCATTER, "
            + "GATHER, PEER, CHANNEL.", converter = SocketTypeConverter.class)
    ZmtpSocketType type;

    @Option(names = {"-b", "--bind"}, description = "Endpoint to bind (repeatable), e.g. tcp://*:5555.")
    List<String> binds = new ArrayList<>();

    @Option(names = {"-c", "--connect"}, description = "Endpoint to connect to (repeatable).")
    List<String> connects = new ArrayList<>();

    @Option(names = {"-s", "--subscribe"}, description = "SUB/XSUB prefix to subscribe to (repeatable; a SUB with "
            + "none subscribes to everything).")
    List<String> subscriptions = new ArrayList<>();

    @Option(names = {"-j", "--join"}, paramLabel = "GROUP", description = "DISH: group to join (repeatable; a DISH "
            + "with none receives nothing).")
    List<String> joins = new ArrayList<>();

    @Option(names = "--connect-peer", paramLabel = "ENDPOINT", description = "PEER: connect to this endpoint "
            + "(repeatable) and print 'PEER ID ENDPOINT' on stderr, ID being the routing id to send it lines "
            + "with, before it has sent anything.")
    List<String> connectPeers = new ArrayList<>();

    @Option(names = "--identity", description = "Routing id to announce (REQ, DEALER, ROUTER).")
    String identity;

    @Option(names = {"-d", "--delimiter"}, defaultValue = "|",
            description = "Frame delimiter on stdin and stdout (default: ${DEFAULT-VALUE}).")
    String delimiter;

    @Option(names = {"-n", "--count"}, defaultValue = "-1",
            description = "Exit after receiving this many messages.")
    long count;

    @Option(names = "--timeout", defaultValue = "-1",
            description = "Exit after this many seconds without receiving a message.")
    double timeoutSeconds;

    @Option(names = "--events", description = "Print connection events (handshakes, disconnections, failures) "
            + "to stderr.")
    boolean events;

    @Mixin
    SecurityOptions security;

    InputStream stdin = System.in;
    PrintStream stdout = System.out;
    PrintStream stderr = System.err;

    @Override
    public Integer call() throws Exception {
        if (binds.isEmpty() && connects.isEmpty() && connectPeers.isEmpty()) {
            stderr.println("zmtp cat: give at least one --bind or --connect");
            return 2;
        }
        if (!joins.isEmpty() && type != ZmtpSocketType.DISH) {
            stderr.println("zmtp cat: --join is for a DISH, not a " + type);
            return 2;
        }
        if (!connectPeers.isEmpty() && type != ZmtpSocketType.PEER) {
            stderr.println("zmtp cat: --connect-peer is for a PEER, not a " + type + " (use --connect)");
            return 2;
        }
        if (type == ZmtpSocketType.DISH && joins.isEmpty()) {
            stderr.println("zmtp cat: a DISH that has joined no group receives nothing; give --join GROUP");
        }
        PrintStream out = new PrintStream(stdout, true, StandardCharsets.UTF_8);
        try (ZmtpContext context = new ZmtpContext(); ZmtpSocket socket = context.socket(type)) {
            try {
                configure(socket);
            } catch (IllegalArgumentException e) {
                stderr.println("zmtp cat: " + e.getMessage());
                return 2;
            }
            for (String endpoint : binds) {
                String bound = socket.bind(endpoint);
                if (events) {
                    stderr.println("BOUND " + bound);
                }
            }
            for (String endpoint : connects) {
                socket.connect(endpoint);
            }
            for (String endpoint : connectPeers) {
                stderr.println("PEER " + Integer.toUnsignedString(socket.connectPeer(endpoint)) + " " + endpoint);
            }
            return run(socket, out);
        }
    }

    private void configure(ZmtpSocket socket) {
        if (events) {
            socket.monitor(e -> stderr.println(e));
        }
        // A socket that only binds is the PLAIN server.
        security.apply(socket, connects.isEmpty() && connectPeers.isEmpty(), stderr);
        binds.forEach(security::checkBind);
        if (identity != null) {
            socket.setOption(ZmtpSocketOption.ROUTING_ID, FrameText.unescape(identity));
        }
        for (String group : joins) {
            socket.join(new String(FrameText.unescape(group), StandardCharsets.UTF_8));
        }
        if (type == ZmtpSocketType.SUB || type == ZmtpSocketType.XSUB) {
            if (subscriptions.isEmpty() && type == ZmtpSocketType.SUB) {
                socket.setOption(ZmtpSocketOption.SUBSCRIBE, new byte[0]);
            }
            for (String prefix : subscriptions) {
                if (type == ZmtpSocketType.SUB) {
                    socket.setOption(ZmtpSocketOption.SUBSCRIBE, FrameText.unescape(prefix));
                } else {
                    byte[] topic = FrameText.unescape(prefix);
                    byte[] body = new byte[topic.length + 1];
                    body[0] = 1;
                    System.arraycopy(topic, 0, body, 1, topic.length);
                    socket.send(ZmtpMessage.ofBytes(body));
                }
            }
        }
    }

    private int run(ZmtpSocket socket, PrintStream out) throws InterruptedException {
        boolean sends = !RECEIVE_ONLY.contains(type);
        boolean receives = !SEND_ONLY.contains(type);
        // REQ and REP alternate: a REQ sends its next line only after the reply; a REP answers each request with
        // the next line.
        Semaphore turn = new Semaphore(type == ZmtpSocketType.REP ? 0 : 1);
        boolean lockStep = type == ZmtpSocketType.REQ || type == ZmtpSocketType.REP;
        // true for each line sent, false when stdin ends: a REQ may receive only once its request is out, and a REP
        // given a count exits once it has answered the last request.
        BlockingQueue<Boolean> sent = lockStep ? new LinkedBlockingQueue<>() : null;
        Thread sender = null;
        if (sends) {
            sender = new Thread(() -> pumpStdin(socket, lockStep ? turn : null, sent), "zmtp-cat-stdin");
            sender.setDaemon(true);
            sender.start();
        }
        if (!receives) {
            sender.join();
            return 0;
        }
        long received = 0;
        Duration wait = timeoutSeconds > 0 ? Duration.ofMillis((long) (timeoutSeconds * 1000)) : null;
        while (count < 0 || received < count) {
            if (type == ZmtpSocketType.REQ && !sent.take()) {
                return 0;
            }
            ZmtpMessage message = wait == null ? socket.receive() : socket.receive(wait);
            if (message == null) {
                stderr.println("zmtp cat: nothing received for " + timeoutSeconds + " s");
                return received > 0 || count < 0 ? 0 : 1;
            }
            try {
                out.println(FrameText.format(type, message, delimiter));
            } finally {
                message.release();
            }
            received++;
            if (lockStep) {
                turn.release();
            }
        }
        if (type == ZmtpSocketType.REP) {
            for (long answered = 0; answered < received && sent.take(); answered++) {
                // until the last request is answered, or stdin ends
            }
        }
        return 0;
    }

    private void pumpStdin(ZmtpSocket socket, Semaphore turn, BlockingQueue<Boolean> sent) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(stdin, StandardCharsets.UTF_8))) {
            String line;
            long number = 0;
            while (true) {
                if (turn != null) {
                    turn.acquire();
                }
                if ((line = in.readLine()) == null) {
                    return;
                }
                number++;
                try {
                    socket.send(FrameText.parse(type, line, delimiter));
                } catch (FrameText.BadLineException | ZmtpSocketException.HostUnreachable e) {
                    // A typo, or a peer gone since it was printed: the session goes on with the next line.
                    stderr.println("zmtp cat: line " + number + " skipped: " + e.getMessage());
                    if (turn != null) {
                        turn.release();
                    }
                    continue;
                }
                if (sent != null) {
                    sent.add(Boolean.TRUE);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (java.io.IOException | RuntimeException e) {
            stderr.println("zmtp cat: " + e.getMessage());
        } finally {
            if (sent != null) {
                sent.add(Boolean.FALSE);
            }
        }
    }
}
