package io.zmtp.interop;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import org.zeromq.SocketType;
import org.zeromq.ZAuth;
import org.zeromq.ZCert;
import org.zeromq.ZConfig;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/**
 * The roles of {@link ZAuthJeromqIT} as one JeroMQ-API program: it is compiled against JeroMQ 0.6.0 (on this
 * module's test class path) and run in a child JVM either as built, on JeroMQ, or with zmtp-jeromq in JeroMQ's
 * jar's place ({@link ZmtpJeromqPeer#classPath()}). It uses nothing but {@code org.zeromq}: certificates go through
 * {@code ZCert} and {@code ZConfig} files, authentication through {@code ZAuth}.
 *
 * <ul>
 *   <li>{@code cert <public file> <secret file> <name>}: a new certificate with metadata {@code name}, saved with
 *       {@code savePublic} and {@code saveSecret}; prints {@code CERT <public key>}.</li>
 *   <li>{@code curve-server <store dir> <server secret file>} and {@code plain-server <password file>}: a REP socket
 *       on 127.0.0.1 under a verbose {@code ZAuth} (CURVE with the certificate store, or PLAIN with the password
 *       file) with replies on; prints {@code PORT <n>}, then {@code ZAP <status> <user id> [name=<name>]} for each ZAP reply (the
 *       name is the metadata the certificate store gave the client) and
 *       {@code SERVED <request>} for each request answered (with {@code OK <request>}), besides ZAuth's own
 *       verbose lines; ends at "exit" or the end of stdin.</li>
 *   <li>{@code curve-client <port> <server public file> <client secret file> <message>} and
 *       {@code plain-client <port> <user> <password> <message>}: a REQ socket watching its handshake on a monitor;
 *       sends its request at once and prints {@code REPLY <reply>} when it is answered, or
 *       {@code REFUSED <event> <value>} when the handshake fails first.</li>
 * </ul>
 */
public final class ZAuthPeerMain {
    private static final int HANDSHAKE_EVENTS = ZMQ.HANDSHAKE_SUCCEEDED | ZMQ.HANDSHAKE_FAILED_AUTH
            | ZMQ.HANDSHAKE_FAILED_PROTOCOL | ZMQ.HANDSHAKE_FAILED_NO_DETAIL;
    private static final int CLIENT_TIMEOUT_MS = 15_000;
    private static final int HANDSHAKE_IVL_MS = 2_000;

    private static volatile boolean stop;

    private ZAuthPeerMain() {}

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "cert" -> cert(args[1], args[2], args[3]);
            case "curve-server", "plain-server" -> server(args);
            case "curve-client", "plain-client" -> client(args);
            default -> throw new IllegalArgumentException("unknown role " + args[0]);
        }
        System.out.flush();
        System.exit(0);
    }

    private static void cert(String publicFile, String secretFile, String name) throws IOException {
        ZCert cert = new ZCert();
        cert.setMeta("name", name);
        cert.savePublic(publicFile);
        cert.saveSecret(secretFile);
        System.out.println("CERT " + cert.getPublicKeyAsZ85());
    }

    /** A certificate read back from a file {@code ZCert} wrote: the public key, and the secret key if it has one. */
    private static ZCert load(String file) throws IOException {
        ZConfig config = ZConfig.load(file);
        String publicKey = config.getValue("curve/public-key");
        String secretKey = config.getValue("curve/secret-key");
        return secretKey == null ? new ZCert(publicKey) : new ZCert(publicKey, secretKey);
    }

    private static void server(String[] args) throws Exception {
        Thread stdin = new Thread(ZAuthPeerMain::readStdin, "stdin");
        stdin.setDaemon(true);
        stdin.start();
        try (ZContext ctx = new ZContext()) {
            ZAuth auth = new ZAuth(ctx);
            auth.setVerbose(true);
            auth.replies(true);
            ZMQ.Socket server = ctx.createSocket(SocketType.REP);
            if (args[0].equals("curve-server")) {
                auth.configureCurve(args[1]);
                load(args[2]).apply(server);
                server.setCurveServer(true);
            } else {
                auth.configurePlain("*", args[1]);
                server.setPlainServer(true);
            }
            int port = server.bindToRandomPort("tcp://127.0.0.1");
            System.out.println("PORT " + port);
            ZMQ.Poller poller = ctx.createPoller(1);
            poller.register(server, ZMQ.Poller.POLLIN);
            while (!stop) {
                poller.poll(50);
                if (poller.pollin(0)) {
                    String request = server.recvStr();
                    server.send("OK " + request);
                    System.out.println("SERVED " + request);
                }
                for (ZAuth.ZapReply reply = auth.nextReply(false); reply != null; reply = auth.nextReply(false)) {
                    String name = reply.metadata == null ? null : reply.metadata.get("name");
                    System.out.println("ZAP " + reply.statusCode + " " + reply.userId
                            + (name == null ? "" : " name=" + name));
                }
            }
            poller.close();
            auth.close();
        }
    }

    private static void readStdin() {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null && !line.trim().equals("exit")) {
                // nothing else to read
            }
        } catch (IOException e) {
            // the test ended: stop as at the end of stdin
        }
        stop = true;
    }

    private static void client(String[] args) throws IOException {
        int port = Integer.parseInt(args[1]);
        String message = args[4];
        try (ZContext ctx = new ZContext()) {
            ZMQ.Socket client = ctx.createSocket(SocketType.REQ);
            // JeroMQ 0.6.0 leaves a few % of its fresh outgoing tcp connections without a greeting until the handshake
            // timer ends them (zeromq/jeromq PR #1022; 30 s by default): 2 s, then it connects again, request queued.
            client.setHandshakeIvl(HANDSHAKE_IVL_MS);
            if (args[0].equals("curve-client")) {
                ZCert server = load(args[2]);
                load(args[3]).apply(client);
                client.setCurveServerKey(server.getPublicKey());
            } else {
                client.setPlainUsername(args[2]);
                client.setPlainPassword(args[3]);
            }
            String monitorEndpoint = "inproc://handshake";
            client.monitor(monitorEndpoint, HANDSHAKE_EVENTS);
            ZMQ.Socket monitor = ctx.createSocket(SocketType.PAIR);
            monitor.connect(monitorEndpoint);
            client.connect("tcp://127.0.0.1:" + port);

            // JeroMQ 0.6.0 never sends HANDSHAKE_SUCCEEDED (it has the constant only): the request goes out at
            // once, queued until the handshake is done, and its reply is the success; a failure is an event.
            client.send(message);
            ZMQ.Poller poller = ctx.createPoller(2);
            poller.register(client, ZMQ.Poller.POLLIN);
            poller.register(monitor, ZMQ.Poller.POLLIN);
            long deadline = System.currentTimeMillis() + CLIENT_TIMEOUT_MS;
            for (long left = CLIENT_TIMEOUT_MS; left > 0; left = deadline - System.currentTimeMillis()) {
                poller.poll(left);
                if (poller.pollin(0)) {
                    System.out.println("REPLY " + client.recvStr());
                    return;
                }
                if (poller.pollin(1)) {
                    ZMQ.Event event = ZMQ.Event.recv(monitor);
                    if (event != null && event.getEvent() != ZMQ.HANDSHAKE_SUCCEEDED) {
                        System.out.println("REFUSED " + eventName(event.getEvent()) + " " + event.getValue());
                        return;
                    }
                }
            }
            System.out.println("NO ANSWER within " + CLIENT_TIMEOUT_MS + " ms");
        }
    }

    private static String eventName(int event) {
        if (event == ZMQ.HANDSHAKE_FAILED_AUTH) {
            return "HANDSHAKE_FAILED_AUTH";
        }
        if (event == ZMQ.HANDSHAKE_FAILED_PROTOCOL) {
            return "HANDSHAKE_FAILED_PROTOCOL";
        }
        if (event == ZMQ.HANDSHAKE_FAILED_NO_DETAIL) {
            return "HANDSHAKE_FAILED_NO_DETAIL";
        }
        return Integer.toString(event);
    }
}
