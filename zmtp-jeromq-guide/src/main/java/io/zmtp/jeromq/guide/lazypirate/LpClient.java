package io.zmtp.jeromq.guide.lazypirate;

import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ.Poller;
import org.zeromq.ZMQ.Socket;

/**
 * The Guide's lpclient, the Lazy Pirate client: a REQ socket with a reply timeout. On a timeout it closes the
 * socket, opens a new one and sends the request again, and abandons after a number of retries in a row.
 *
 * <p>Arguments: {@code [endpoint [requests [timeoutMillis [retries]]]]} (defaults {@code tcp://localhost:5555},
 * unbounded, 2500, 3). With a number of requests it stops after that many replies.
 */
public final class LpClient {
    private LpClient() {}

    public static void main(String[] args) {
        String serverEndpoint = args.length > 0 ? args[0] : "tcp://localhost:5555";
        int requests = args.length > 1 ? Integer.parseInt(args[1]) : Integer.MAX_VALUE;
        int requestTimeout = args.length > 2 ? Integer.parseInt(args[2]) : 2500; // msecs, (> 1000!)
        int requestRetries = args.length > 3 ? Integer.parseInt(args[3]) : 3; // Before we abandon

        try (ZContext ctx = new ZContext()) {
            System.out.println("I: connecting to server");
            Socket client = ctx.createSocket(SocketType.REQ);
            assert client != null;
            client.connect(serverEndpoint);

            Poller poller = ctx.createPoller(1);
            poller.register(client, Poller.POLLIN);

            int sequence = 0;
            int retriesLeft = requestRetries;
            while (retriesLeft > 0 && sequence < requests && !Thread.currentThread().isInterrupted()) {
                // We send a request, then we work to get a reply
                String request = String.format("%d", ++sequence);
                client.send(request);

                int expectReply = 1;
                while (expectReply > 0) {
                    // Poll socket for a reply, with timeout
                    int rc = poller.poll(requestTimeout);
                    if (rc == -1) {
                        break; // Interrupted
                    }

                    // Here we process a server reply and exit our loop if the reply is valid. If we didn't get a
                    // reply we close the client socket and resend the request. We try a number of times before
                    // finally abandoning:
                    if (poller.pollin(0)) {
                        // We got a reply from the server, must match sequence
                        String reply = client.recvStr();
                        if (reply == null) {
                            break; // Interrupted
                        }
                        if (Integer.parseInt(reply) == sequence) {
                            System.out.printf("I: server replied OK (%s)\n", reply);
                            retriesLeft = requestRetries;
                            expectReply = 0;
                        } else {
                            System.out.printf("E: malformed reply from server: %s\n", reply);
                        }
                    } else if (--retriesLeft == 0) {
                        System.out.println("E: server seems to be offline, abandoning");
                        break;
                    } else {
                        System.out.println("W: no response from server, retrying");
                        // Old socket is confused; close it and open a new one
                        poller.unregister(client);
                        ctx.destroySocket(client);
                        System.out.println("I: reconnecting to server");
                        client = ctx.createSocket(SocketType.REQ);
                        client.connect(serverEndpoint);
                        poller.register(client, Poller.POLLIN);
                        // Send request again, on new socket
                        client.send(request);
                    }
                }
            }
            poller.close();
        }
    }
}
