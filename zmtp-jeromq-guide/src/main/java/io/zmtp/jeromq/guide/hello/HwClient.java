package io.zmtp.jeromq.guide.hello;

import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/**
 * The Guide's hwclient: a REQ socket that sends "Hello" ten times and prints each "World".
 *
 * <p>Arguments: {@code [endpoint [requests]]} (defaults {@code tcp://localhost:5555}, 10).
 */
public final class HwClient {
    private HwClient() {}

    public static void main(String[] args) {
        String endpoint = args.length > 0 ? args[0] : "tcp://localhost:5555";
        int requests = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        try (ZContext context = new ZContext()) {
            // Socket to talk to server
            System.out.println("Connecting to hello world server");

            ZMQ.Socket socket = context.createSocket(SocketType.REQ);
            socket.connect(endpoint);

            for (int requestNbr = 0; requestNbr != requests; requestNbr++) {
                String request = "Hello";
                System.out.println("Sending Hello " + requestNbr);
                socket.send(request.getBytes(ZMQ.CHARSET), 0);

                byte[] reply = socket.recv(0);
                System.out.println("Received " + new String(reply, ZMQ.CHARSET) + " " + requestNbr);
            }
        }
    }
}
