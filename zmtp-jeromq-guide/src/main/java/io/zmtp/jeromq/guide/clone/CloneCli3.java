package io.zmtp.jeromq.guide.clone;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;
import org.zeromq.ZMQ.Poller;
import org.zeromq.ZMQ.Socket;

/**
 * The Guide's clonecli3, the Clone client (model three): subscribes to the server's updates, asks its DEALER for
 * a snapshot, then applies every published update newer than the snapshot and pushes a random update of its own
 * each interval, the first a second after the snapshot.
 *
 * <p>Arguments: {@code [snapshot publisher collector [updates [intervalMillis [keys]]]]} (defaults
 * {@code tcp://localhost:5556}, {@code :5557}, {@code :5558}, unbounded, 1000, 10000). With a number of updates,
 * after sending that many it waits until the server has been quiet for two seconds, prints its map (one
 * "I: entry KEY=VALUE" line per key) and ends: the map of a client that converged is the server's.
 */
public final class CloneCli3 {
    /** How long the server must have been silent, once our updates are sent, before the map counts as final. */
    private static final long QUIET_MILLIS = 2000;

    private static final Map<String, KvSimple> kvMap = new TreeMap<>();

    private CloneCli3() {}

    public static void main(String[] args) {
        String snapshotEndpoint = args.length > 0 ? args[0] : "tcp://localhost:5556";
        String subscriberEndpoint = args.length > 1 ? args[1] : "tcp://localhost:5557";
        String pushEndpoint = args.length > 2 ? args[2] : "tcp://localhost:5558";
        long updates = args.length > 3 ? Long.parseLong(args[3]) : Long.MAX_VALUE;
        long interval = args.length > 4 ? Long.parseLong(args[4]) : 1000;
        int keys = args.length > 5 ? Integer.parseInt(args[5]) : 10000;

        try (ZContext ctx = new ZContext()) {
            Socket snapshot = ctx.createSocket(SocketType.DEALER);
            snapshot.connect(snapshotEndpoint);

            Socket subscriber = ctx.createSocket(SocketType.SUB);
            subscriber.connect(subscriberEndpoint);
            subscriber.subscribe(ZMQ.SUBSCRIPTION_ALL);

            Socket push = ctx.createSocket(SocketType.PUSH);
            push.connect(pushEndpoint);

            // Get state snapshot
            snapshot.send("ICANHAZ?".getBytes(ZMQ.CHARSET), 0);
            long sequence = 0;
            while (true) {
                KvSimple kvMsg = KvSimple.recv(snapshot);
                if (kvMsg == null) {
                    break; // Interrupted
                }

                sequence = kvMsg.getSequence();
                if ("KTHXBAI".equalsIgnoreCase(kvMsg.getKey())) {
                    System.out.println("Received snapshot = " + kvMsg.getSequence());
                    break; // done
                }

                System.out.println("receiving " + kvMsg.getSequence());
                kvMap.put(kvMsg.getKey(), kvMsg);
            }

            Poller poller = ctx.createPoller(1);
            poller.register(subscriber);

            Random random = new Random();

            // Now apply pending updates, discard out-of-getSequence messages
            long sent = 0;
            long alarm = System.currentTimeMillis() + 1000; // the first update a second after the snapshot
            long quietUntil = sent == updates ? System.currentTimeMillis() + QUIET_MILLIS : Long.MAX_VALUE;
            while (!Thread.currentThread().isInterrupted()) {
                int rc = poller.poll(Math.max(0, Math.min(alarm, quietUntil) - System.currentTimeMillis()));
                if (rc == -1) {
                    break; // Context has been shut down
                }

                if (poller.pollin(0)) {
                    KvSimple kvMsg = KvSimple.recv(subscriber);
                    if (kvMsg == null) {
                        break; // Interrupted
                    }
                    if (kvMsg.getSequence() > sequence) {
                        sequence = kvMsg.getSequence();
                        System.out.println("receiving " + sequence);
                        kvMap.put(kvMsg.getKey(), kvMsg);
                    }
                    if (sent == updates) {
                        quietUntil = System.currentTimeMillis() + QUIET_MILLIS;
                    }
                }

                if (sent == updates && System.currentTimeMillis() >= quietUntil) {
                    break; // all ours sent, and nobody else has anything more to say
                }
                if (sent < updates && System.currentTimeMillis() >= alarm) {
                    // If we timed out, generate a random kvmsg
                    int key = random.nextInt(keys);
                    int body = random.nextInt(1000000);

                    ByteBuffer b = ByteBuffer.allocate(4);
                    b.asIntBuffer().put(body);

                    KvSimple kvUpdateMsg = new KvSimple(key + "", 0, b.array());
                    kvUpdateMsg.send(push);
                    alarm = System.currentTimeMillis() + interval;
                    if (++sent == updates) {
                        quietUntil = System.currentTimeMillis() + QUIET_MILLIS;
                    }
                }
            }
            poller.close();

            System.out.println("I: map at sequence " + sequence + ", " + kvMap.size() + " keys");
            for (Map.Entry<String, KvSimple> entry : kvMap.entrySet()) {
                System.out.println("I: entry " + entry.getKey() + "="
                        + ByteBuffer.wrap(entry.getValue().getBody()).getInt());
            }
        }
    }
}
