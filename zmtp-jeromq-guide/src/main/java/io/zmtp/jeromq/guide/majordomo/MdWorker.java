package io.zmtp.jeromq.guide.majordomo;

import org.zeromq.ZMsg;

/**
 * The Guide's mdworker: a Majordomo worker that echoes every request back, through {@link MdWrkApi}.
 *
 * <p>Arguments: {@code [broker [service]]} (defaults {@code tcp://localhost:5555}, {@code echo}); {@code -v}
 * anywhere for verbose. Prints a line per request so a test sees which service's worker answered.
 */
public final class MdWorker {
    private MdWorker() {}

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

        MdWrkApi workerSession = new MdWrkApi(broker, service, verbose);

        ZMsg reply = null;
        int handled = 0;
        while (!Thread.currentThread().isInterrupted()) {
            ZMsg request = workerSession.receive(reply);
            if (request == null) {
                break; // Interrupted
            }
            System.out.println("I: " + service + " request " + ++handled);
            reply = request; // Echo is complex :-)
        }
        workerSession.destroy();
    }
}
