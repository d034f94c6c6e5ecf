package io.zmtp.jeromq.guide.syncpub;

import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/**
 * The Guide's syncsub: subscribes, checks in with the publisher on a REQ socket, then counts updates until END.
 *
 * <p>Arguments: {@code [pub endpoint] [sync endpoint]} (defaults: {@code tcp://localhost:5561},
 * {@code tcp://localhost:5562}). Waits up to 10 s for each update (the Guide's waits for ever) and prints
 * {@code E: no END} with the count if it stopped coming; else {@code Received N updates.} Waits a second after
 * subscribing, as the Guide's C syncsub does (its Java one doesn't): the REQ/REP check-in can otherwise complete
 * before the publisher has the subscription, and the subscriber then misses the whole stream (seen on JeroMQ).
 */
public final class SyncSub {
    private SyncSub() {}

    public static void main(String[] args) {
        String pubEndpoint = args.length > 0 ? args[0] : "tcp://localhost:5561";
        String syncEndpoint = args.length > 1 ? args[1] : "tcp://localhost:5562";
        try (ZContext context = new ZContext()) {
            // First, connect our subscriber socket
            ZMQ.Socket subscriber = context.createSocket(SocketType.SUB);
            subscriber.connect(pubEndpoint);
            subscriber.subscribe(ZMQ.SUBSCRIPTION_ALL);
            // 0MQ is so fast, we need to wait a while...
            try {
                Thread.sleep(1000);
            } catch (InterruptedException e) {
                return;
            }

            // Second, synchronize with publisher
            ZMQ.Socket syncclient = context.createSocket(SocketType.REQ);
            syncclient.connect(syncEndpoint);
            // - send a synchronization request
            syncclient.send(ZMQ.MESSAGE_SEPARATOR, 0);
            // - wait for synchronization reply
            syncclient.recv(0);

            // Third, get our updates and report how many we got
            subscriber.setReceiveTimeOut(10_000);
            int updateNbr = 0;
            while (true) {
                String string = subscriber.recvStr(0);
                if (string == null) {
                    System.out.println("E: no END after " + updateNbr + " updates");
                    return;
                }
                if (string.equals("END")) {
                    break;
                }
                updateNbr++;
            }
            System.out.println("Received " + updateNbr + " updates.");
        }
    }
}
