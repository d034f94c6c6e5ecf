package io.zmtp.interop;

import static java.nio.charset.StandardCharsets.US_ASCII;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/**
 * A ZAP handler (rfc 27) for the JeroMQ peer, as socket_peer.py's {@code zap} command is for libzmq: a REP socket at
 * {@code inproc://zeromq.zap.01} in the peer's context, on a thread of its own, allowing PLAIN users and CURVE keys
 * given as rules ({@code plain=USER:PASS}, {@code curve=Z85KEY}, {@code curveany=1}).
 */
final class JeromqZapHandler {
    private final Map<String, String> plain = new HashMap<>();
    private final List<byte[]> keys = new ArrayList<>();
    private boolean anyKey;
    private final List<String> log = Collections.synchronizedList(new ArrayList<>());

    JeromqZapHandler(String... rules) {
        for (String r : rules) {
            String key = r.substring(0, r.indexOf('='));
            String value = r.substring(r.indexOf('=') + 1);
            switch (key) {
                case "plain" -> plain.put(value.substring(0, value.indexOf(':')),
                        value.substring(value.indexOf(':') + 1));
                case "curve" -> keys.add(ZMQ.Curve.z85Decode(value));
                case "curveany" -> anyKey = value.equals("1");
                default -> throw new IllegalArgumentException("unknown ZAP rule " + r);
            }
        }
    }

    /** Binds in {@code context} (before returning) and serves on a daemon thread until the context closes. */
    void start(ZContext context) {
        ZMQ.Socket handler = context.createSocket(SocketType.REP);
        handler.setLinger(0);
        handler.bind("inproc://zeromq.zap.01");
        Thread t = new Thread(() -> serve(handler), "jeromq-zap-handler");
        t.setDaemon(true);
        t.start();
    }

    String log() {
        synchronized (log) {
            return String.join(" ", log);
        }
    }

    private void serve(ZMQ.Socket handler) {
        try {
            while (!Thread.currentThread().isInterrupted()) {
                List<byte[]> request = new ArrayList<>();
                request.add(handler.recv());
                while (handler.hasReceiveMore()) {
                    request.add(handler.recv());
                }
                String mechanism = new String(request.get(5), US_ASCII);
                String user = "";
                boolean ok = false;
                if (mechanism.equals("PLAIN")) {
                    user = new String(request.get(6), US_ASCII);
                    ok = new String(request.get(7), US_ASCII).equals(plain.get(user));
                } else if (mechanism.equals("CURVE")) {
                    byte[] key = request.get(6);
                    user = ZMQ.Curve.z85Encode(key);
                    ok = anyKey || keys.stream().anyMatch(k -> Arrays.equals(k, key));
                } else if (mechanism.equals("NULL")) {
                    ok = true;
                }
                log.add(mechanism + ":" + user + ":" + (ok ? "200" : "400"));
                handler.sendMore(request.get(0));
                handler.sendMore(request.get(1));
                handler.sendMore(ok ? "200" : "400");
                handler.sendMore(ok ? "OK" : "denied");
                handler.sendMore(ok ? user : "");
                handler.send(new byte[0]);
            }
        } catch (RuntimeException e) {
            // The context closed: the peer is done (JeroMQ 0.6.0 may throw a ZMQException or, from inside its
            // shutdown, a NullPointerException).
        } finally {
            try {
                handler.close();
            } catch (RuntimeException ignored) {
                // already gone with its context
            }
        }
    }
}
