package io.zmtp.jeromq.guide.hello;

import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/**
 * The Guide's hwserver: a REP socket that answers every "Hello" with "World".
 *
 * <p>Arguments: {@code [endpoint]} (default {@code tcp://*:5555}). Runs until its thread is interrupted or the
 * process ends, as the Guide's does.
 */
public final class HwServer {
    private HwServer() {}

    public static void main(String[] args) throws Exception {
        String endpoint = args.length > 0 ? args[0] : "tcp://*:5555";
        try (ZContext context = new ZContext()) {
            // Socket to talk to clients
            ZMQ.Socket socket = context.createSocket(SocketType.REP);
            socket.bind(endpoint);
            System.out.println("I: bound " + endpoint);

            while (!Thread.currentThread().isInterrupted()) {
                // Block until a message is received
                byte[] reply = socket.recv(0);

                // Print the message
                System.out.println("Received: [" + new String(reply, ZMQ.CHARSET) + "]");

                // Send a response
                String response = "World";
                socket.send(response.getBytes(ZMQ.CHARSET), 0);
            }
        }
    }
}
