package io.zmtp.jeromq.guide.clone;

import java.util.Map;
import java.util.TreeMap;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;
import org.zeromq.ZMQ.Poller;
import org.zeromq.ZMQ.Socket;

/**
 * The Guide's clonesrv3, the Clone server (model three): clients push updates to its PULL collector; it numbers
 * each, stores it in its key-value map and publishes it on its PUB socket; a client asking its ROUTER for a
 * snapshot ("ICANHAZ?") gets the whole map then "KTHXBAI" with the sequence number the snapshot is at.
 *
 * <p>Arguments: {@code [snapshot publisher collector]} (defaults {@code tcp://*:5556}, {@code tcp://*:5557},
 * {@code tcp://*:5558}).
 */
public final class CloneSrv3 {
    private static final Map<String, KvSimple> kvMap = new TreeMap<>();

    private CloneSrv3() {}

    public static void main(String[] args) {
        String snapshotEndpoint = args.length > 0 ? args[0] : "tcp://*:5556";
        String publisherEndpoint = args.length > 1 ? args[1] : "tcp://*:5557";
        String collectorEndpoint = args.length > 2 ? args[2] : "tcp://*:5558";

        try (ZContext ctx = new ZContext()) {
            Socket snapshot = ctx.createSocket(SocketType.ROUTER);
            snapshot.bind(snapshotEndpoint);

            Socket publisher = ctx.createSocket(SocketType.PUB);
            publisher.bind(publisherEndpoint);

            Socket collector = ctx.createSocket(SocketType.PULL);
            collector.bind(collectorEndpoint);
            System.out.println("I: bound " + snapshotEndpoint + " " + publisherEndpoint + " " + collectorEndpoint);

            Poller poller = ctx.createPoller(2);
            poller.register(collector, Poller.POLLIN);
            poller.register(snapshot, Poller.POLLIN);

            long sequence = 0;
            while (!Thread.currentThread().isInterrupted()) {
                if (poller.poll(1000) < 0) {
                    break; // Context has been shut down
                }

                // Apply state updates from main thread
                if (poller.pollin(0)) {
                    KvSimple kvMsg = KvSimple.recv(collector);
                    if (kvMsg == null) {
                        break; // Interrupted
                    }
                    kvMsg.setSequence(++sequence);
                    kvMsg.send(publisher);
                    kvMap.put(kvMsg.getKey(), kvMsg);
                    System.out.printf("I: publishing update %5d\n", sequence);
                }

                // Execute state snapshot request
                if (poller.pollin(1)) {
                    byte[] identity = snapshot.recv(0);
                    if (identity == null) {
                        break; // Interrupted
                    }

                    // Request is in second frame of message
                    String request = snapshot.recvStr();

                    if (!request.equals("ICANHAZ?")) {
                        System.out.println("E: bad request, aborting");
                        break;
                    }

                    for (Map.Entry<String, KvSimple> entry : kvMap.entrySet()) {
                        sendSingle(entry.getValue(), identity, snapshot);
                    }

                    // Now send END message with sequence number
                    System.out.printf("I: sending snapshot =%d\n", sequence);
                    snapshot.send(identity, ZMQ.SNDMORE);
                    KvSimple message = new KvSimple("KTHXBAI", sequence, ZMQ.MESSAGE_SEPARATOR);
                    message.send(snapshot);
                }
            }
            System.out.printf(" Interrupted\n%d messages handled\n", sequence);
        }
    }

    private static void sendSingle(KvSimple msg, byte[] identity, Socket snapshot) {
        snapshot.send(identity, ZMQ.SNDMORE);
        msg.send(snapshot);
    }
}
