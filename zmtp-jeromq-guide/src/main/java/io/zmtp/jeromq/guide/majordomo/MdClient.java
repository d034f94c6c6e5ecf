package io.zmtp.jeromq.guide.majordomo;

import org.zeromq.ZMsg;

/**
 * The Guide's mdclient: sends requests to a Majordomo service through {@link MdCliApi} and counts the replies.
 *
 * <p>Arguments: {@code [broker [service [requests [body]]]]} (defaults {@code tcp://localhost:5555},
 * {@code echo}, 100000, {@code Hello world}); {@code -v} anywhere for verbose. Prints the first reply's body.
 */
public final class MdClient {
    private MdClient() {}

    public static void main(String[] args) {
        boolean verbose = false;
        java.util.List<String> rest = new java.util.ArrayList<>();
        for (String arg : args) {
            if (arg.equals("-v")) {
                verbose = true;
            } else {
                rest.add(arg);
            }
        }
        String broker = rest.size() > 0 ? rest.get(0) : "tcp://localhost:5555";
        String service = rest.size() > 1 ? rest.get(1) : "echo";
        int requests = rest.size() > 2 ? Integer.parseInt(rest.get(2)) : 100000;
        String body = rest.size() > 3 ? rest.get(3) : "Hello world";

        MdCliApi clientSession = new MdCliApi(broker, verbose);

        int count;
        for (count = 0; count < requests; count++) {
            ZMsg request = new ZMsg();
            request.addString(body);
            ZMsg reply = clientSession.send(service, request);
            if (reply == null) {
                break; // Interrupt or failure
            }
            if (count == 0) {
                System.out.println("I: first reply from '" + service + "': " + reply.popString());
            }
            reply.destroy();
        }

        System.out.printf("%d requests/replies processed\n", count);
        clientSession.destroy();
    }
}
