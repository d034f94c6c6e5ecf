import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/**
 * mtrelay's first step, in a loop: a thread connects a PAIR to an inproc name nobody has bound yet, sends one
 * message and closes the socket; another thread binds the name a moment later and waits for the message.
 * Arguments: rounds, the sender's linger (ZContext's 0 when omitted), the binder's delay in ms (0).
 * Prints how many rounds lost the message and how long the slowest close took.
 */
public class InprocConnectFirstProbe {
    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        Integer linger = args.length > 1 ? Integer.valueOf(args[1]) : null;
        int delay = args.length > 2 ? Integer.parseInt(args[2]) : 0;
        int lost = 0;
        long slowestClose = 0;
        for (int i = 0; i < rounds; i++) {
            try (ZContext ctx = new ZContext()) {
                long[] closeNanos = new long[1];
                Thread sender = new Thread(() -> {
                    ZMQ.Socket s = ctx.createSocket(SocketType.PAIR);
                    if (linger != null) {
                        s.setLinger(linger);
                    }
                    s.connect("inproc://step2");
                    s.send("READY", 0);
                    long t0 = System.nanoTime();
                    s.close();
                    closeNanos[0] = System.nanoTime() - t0;
                });
                sender.start();
                if (delay > 0) {
                    Thread.sleep(delay);
                }
                ZMQ.Socket receiver = ctx.createSocket(SocketType.PAIR);
                receiver.bind("inproc://step2");
                receiver.setReceiveTimeOut(2000);
                String got = receiver.recvStr(0);
                if (!"READY".equals(got)) {
                    lost++;
                }
                sender.join(10_000);
                if (sender.isAlive()) {
                    System.out.println("round " + i + ": the sender's close is still blocked after 10 s");
                    System.out.flush();
                    Runtime.getRuntime().halt(2);
                }
                slowestClose = Math.max(slowestClose, closeNanos[0]);
            }
        }
        System.out.printf("inproc connect-first (linger %s, bind after %d ms): lost %d of %d, slowest close %d ms%n",
                linger == null ? "ZContext's" : linger, delay, lost, rounds, slowestClose / 1_000_000);
    }
}
