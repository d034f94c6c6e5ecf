import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/**
 * syncpub's stream, in a loop: a PUB with LINGER 5000 and SNDHWM 0 in its own ZContext sends {@code count}
 * messages and END, and its context closes at once; a SUB in another ZContext of the same process counts what
 * arrives before END. Arguments: rounds, count. Prints the rounds that lost messages and the worst loss.
 */
public class StreamAtCloseProbe {
    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        int count = args.length > 1 ? Integer.parseInt(args[1]) : 100_000;
        int short_ = 0;
        long worst = 0;
        try (ZContext subCtx = new ZContext()) {
            for (int i = 0; i < rounds; i++) {
                ZMQ.Socket sub = subCtx.createSocket(SocketType.SUB);
                sub.setRcvHWM(0);
                sub.subscribe(ZMQ.SUBSCRIPTION_ALL);
                long[] received = {-1};
                Thread pub = null;
                try (ZContext pubCtx = new ZContext()) {
                    ZMQ.Socket publisher = pubCtx.createSocket(SocketType.PUB);
                    publisher.setLinger(5000);
                    publisher.setSndHWM(0);
                    int port = publisher.bindToRandomPort("tcp://127.0.0.1");
                    sub.connect("tcp://127.0.0.1:" + port);
                    // The subscription reaches the PUB: wait until a probe message comes through.
                    sub.setReceiveTimeOut(10);
                    while (true) {
                        publisher.send("probe", 0);
                        if (sub.recvStr(0) != null) {
                            break;
                        }
                    }
                    while (sub.recvStr(0) != null) {
                        // drain the probes
                    }
                    Thread reader = new Thread(() -> {
                        sub.setReceiveTimeOut(5000);
                        long n = 0;
                        while (true) {
                            String s = sub.recvStr(0);
                            if (s == null) {
                                break;
                            }
                            if (s.equals("END")) {
                                received[0] = n;
                                return;
                            }
                            if (!s.equals("probe")) {
                                n++;
                            }
                        }
                        received[0] = -1 - n;
                    });
                    reader.start();
                    pub = reader;
                    for (int m = 0; m < count; m++) {
                        publisher.send("Rhubarb", 0);
                    }
                    publisher.send("END", 0);
                }
                pub.join();
                long got = received[0] >= 0 ? received[0] : -1 - received[0];
                if (received[0] != count) {
                    short_++;
                    worst = Math.max(worst, count - got + (received[0] < 0 ? 1 : 0));
                }
                subCtx.destroySocket(sub);
            }
        }
        System.out.printf("stream at ZContext close (PUB LINGER 5000, %d + END over tcp): %d of %d rounds short, "
                + "worst %d lost%n", count, short_, rounds, worst);
    }
}
