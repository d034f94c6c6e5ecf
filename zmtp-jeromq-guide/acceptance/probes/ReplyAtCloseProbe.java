import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/**
 * rtdealer's and rtreq's last reply, in a loop: a ROUTER in its own ZContext answers a DEALER's (or REQ's) request
 * and its context closes right after the send; the peer, in another ZContext of the same process, waits for the
 * reply. Arguments: rounds, peer type (DEALER or REQ). Prints how many replies were lost. Each round has
 * contexts of its own (JeroMQ 0.6.0's I/O thread, reused for a new connection once a broker's context closed under
 * an earlier one, could leave the greeting unread).
 */
public class ReplyAtCloseProbe {
    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        SocketType peerType = SocketType.valueOf(args.length > 1 ? args[1] : "DEALER");
        int lost = 0;
        for (int i = 0; i < rounds; i++) {
            try (ZContext peerCtx = new ZContext()) {
                ZMQ.Socket peer = peerCtx.createSocket(peerType);
                String endpoint;
                try (ZContext brokerCtx = new ZContext()) {
                    ZMQ.Socket broker = brokerCtx.createSocket(SocketType.ROUTER);
                    int port = broker.bindToRandomPort("tcp://127.0.0.1");
                    endpoint = "tcp://127.0.0.1:" + port;
                    peer.connect(endpoint);
                    if (peerType == SocketType.DEALER) {
                        peer.sendMore("");
                    }
                    peer.send("Hi Boss");
                    byte[] id = broker.recv(0);
                    broker.recv(0);
                    broker.recv(0);
                    broker.sendMore(id);
                    broker.sendMore("");
                    broker.send("Fired!");
                }
                peer.setReceiveTimeOut(1000);
                String got = peer.recvStr(0);
                if (peerType == SocketType.DEALER && got != null) {
                    got = peer.recvStr(0);
                }
                if (!"Fired!".equals(got)) {
                    lost++;
                }
            }
        }
        System.out.printf("reply at ZContext close (ROUTER to %s over tcp): lost %d of %d%n", peerType, lost, rounds);
    }
}
