package io.zmtp.jeromq.guide.majordomo;

import java.util.Formatter;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZFrame;
import org.zeromq.ZMQ;
import org.zeromq.ZMsg;

/**
 * The Guide's mdcliapi: the Majordomo Protocol client API, synchronous, on a REQ socket. A request with no reply
 * within the timeout is sent again on a new socket, up to the number of retries.
 */
public final class MdCliApi {
    private final String broker;
    private final ZContext ctx;
    private ZMQ.Socket client;
    private final long timeout = 2500;
    private final int retries = 3;
    private final boolean verbose;
    private final Formatter log = new Formatter(System.out);

    /** Connects to {@code broker}; {@code verbose} dumps every message to stdout. */
    public MdCliApi(String broker, boolean verbose) {
        this.broker = broker;
        this.verbose = verbose;
        ctx = new ZContext();
        reconnectToBroker();
    }

    /** Connect or reconnect to broker. */
    void reconnectToBroker() {
        if (client != null) {
            ctx.destroySocket(client);
        }
        client = ctx.createSocket(SocketType.REQ);
        client.connect(broker);
        if (verbose) {
            log.format("I: connecting to broker at %s\n", broker);
        }
    }

    /**
     * Sends a request to {@code service} and waits for the reply, or returns null when every retry timed out.
     * Takes ownership of {@code request} and destroys it.
     */
    public ZMsg send(String service, ZMsg request) {
        request.push(new ZFrame(service));
        request.push(MDP.C_CLIENT.newFrame());
        if (verbose) {
            log.format("I: send request to '%s' service: \n", service);
            request.dump(log.out());
        }
        ZMsg reply = null;

        int retriesLeft = retries;
        while (retriesLeft > 0 && !Thread.currentThread().isInterrupted()) {
            request.duplicate().send(client);

            // Poll socket for a reply, with timeout
            ZMQ.Poller items = ctx.createPoller(1);
            items.register(client, ZMQ.Poller.POLLIN);
            if (items.poll(timeout) == -1) {
                break; // Interrupted
            }

            if (items.pollin(0)) {
                ZMsg msg = ZMsg.recvMsg(client);
                if (verbose) {
                    log.format("I: received reply: \n");
                    msg.dump(log.out());
                }
                // Don't try to handle errors, just assert noisily
                assert msg.size() >= 3;

                ZFrame header = msg.pop();
                assert MDP.C_CLIENT.frameEquals(header);
                header.destroy();

                ZFrame replyService = msg.pop();
                assert replyService.streq(service);
                replyService.destroy();

                reply = msg;
                items.close();
                break;
            } else {
                items.unregister(client);
                if (--retriesLeft == 0) {
                    log.format("W: permanent error, abandoning\n");
                    items.close();
                    break;
                }
                log.format("W: no reply, reconnecting\n");
                reconnectToBroker();
            }
            items.close();
        }
        log.flush();
        request.destroy();
        return reply;
    }

    /** Closes the client's context and socket. */
    public void destroy() {
        ctx.destroy();
    }
}
