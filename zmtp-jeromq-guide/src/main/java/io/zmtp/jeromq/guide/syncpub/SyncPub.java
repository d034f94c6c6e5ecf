package io.zmtp.jeromq.guide.syncpub;

import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/**
 * The Guide's syncpub: waits for a number of subscribers to check in on a REP socket, then publishes a stream of
 * updates and END with LINGER 5000 and SNDHWM 0, and closes its context right after the last send.
 *
 * <p>Arguments: {@code [pub endpoint] [sync endpoint] [subscribers] [updates] [linger ms]} (defaults:
 * {@code tcp://*:5561}, {@code tcp://*:5562}, 10, 1000000, and the Guide's 5000). The tests pass a longer linger: the
 * Guide's 5 s is a deadline that a machine busy enough (one core shared by four JVMs and a build) misses, and then
 * drops the stream's tail on either build, as ZeroMQ should.
 */
public final class SyncPub {
    private SyncPub() {}

    public static void main(String[] args) {
        String pubEndpoint = args.length > 0 ? args[0] : "tcp://*:5561";
        String syncEndpoint = args.length > 1 ? args[1] : "tcp://*:5562";
        int expected = args.length > 2 ? Integer.parseInt(args[2]) : 10;
        int updates = args.length > 3 ? Integer.parseInt(args[3]) : 1000000;
        int linger = args.length > 4 ? Integer.parseInt(args[4]) : 5000;
        try (ZContext context = new ZContext()) {
            // Socket to talk to clients
            ZMQ.Socket publisher = context.createSocket(SocketType.PUB);
            publisher.setLinger(linger);
            // Our subscribers must get every message: no high-water mark
            publisher.setSndHWM(0);
            publisher.bind(pubEndpoint);

            // Socket to receive signals
            ZMQ.Socket syncservice = context.createSocket(SocketType.REP);
            syncservice.bind(syncEndpoint);

            System.out.println("Waiting for subscribers");
            // Get synchronization from subscribers
            int subscribers = 0;
            while (subscribers < expected) {
                // - wait for synchronization request
                syncservice.recv(0);
                // - send synchronization reply
                syncservice.send("", 0);
                subscribers++;
            }
            // Now broadcast exactly the updates followed by END
            System.out.println("Broadcasting messages");
            for (int updateNbr = 0; updateNbr < updates; updateNbr++) {
                publisher.send("Rhubarb", 0);
            }
            publisher.send("END", 0);
        }
    }
}
