package io.zmtp.jeromq.guide.relay;

import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/**
 * The Guide's mtrelay: three threads of one context signal each other over inproc PAIRs. Step 1 is started first and
 * connects to {@code inproc://step2} before step 2 has bound it, sends READY and closes its socket at once (the
 * context's LINGER, 0); step 2 binds, waits for it, and signals step 3 the same way.
 *
 * <p>Arguments: {@code [rounds]} (default 1): the relay runs that many times, each in a new context. A step waits
 * up to 5 s for its signal (the Guide's waits for ever) and prints {@code E: step N got no signal} if none came.
 * Prints {@code Test successful!} per round that completed.
 */
public final class MtRelay {
    private MtRelay() {}

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 1;
        for (int round = 0; round < rounds; round++) {
            boolean[] ok = {true, true};
            try (ZContext context = new ZContext()) {
                // Step 1 signals to step 2
                Thread step1 = new Thread(() -> {
                    ZMQ.Socket xmitter = context.createSocket(SocketType.PAIR);
                    xmitter.connect("inproc://step2");
                    System.out.println("Step 1 ready, signaling step 2");
                    xmitter.send("READY", 0);
                    xmitter.close();
                });
                step1.start();

                // Step 2 relays the signal from step 1 to step 3
                Thread step2 = new Thread(() -> {
                    ZMQ.Socket receiver = context.createSocket(SocketType.PAIR);
                    receiver.bind("inproc://step2");
                    ok[0] = awaitSignal(receiver, 2);
                    receiver.close();
                    ZMQ.Socket xmitter = context.createSocket(SocketType.PAIR);
                    xmitter.connect("inproc://step3");
                    System.out.println("Step 2 ready, signaling step 3");
                    xmitter.send("READY", 0);
                    xmitter.close();
                });
                step2.start();

                // Step 3 waits for the signal from step 2
                Thread step3 = new Thread(() -> {
                    ZMQ.Socket receiver = context.createSocket(SocketType.PAIR);
                    receiver.bind("inproc://step3");
                    ok[1] = awaitSignal(receiver, 3);
                    receiver.close();
                    System.out.println("Step 3 ready");
                });
                step3.start();

                step1.join();
                step2.join();
                step3.join();
                if (ok[0] && ok[1]) {
                    System.out.println("Test successful!");
                }
            }
        }
    }

    private static boolean awaitSignal(ZMQ.Socket receiver, int step) {
        receiver.setReceiveTimeOut(5000);
        if (receiver.recv(0) == null) {
            System.out.println("E: step " + step + " got no signal");
            return false;
        }
        return true;
    }
}
