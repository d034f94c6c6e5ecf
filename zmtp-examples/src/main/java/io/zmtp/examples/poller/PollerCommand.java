package io.zmtp.examples.poller;

import io.zmtp.codec.ZmtpMessage;
import io.zmtp.codec.ZmtpSocketType;
import io.zmtp.examples.Lifetime;
import io.zmtp.socket.ZmtpContext;
import io.zmtp.socket.ZmtpPoller;
import io.zmtp.socket.ZmtpSocket;
import io.zmtp.socket.ZmtpSocketException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.time.Duration;
import java.util.concurrent.Callable;

/**
 * {@code ./zmtp example poller}: ffi-rzmq's {@code reqrep_poll} example. A REQ and a REP in one process, both driven
 * from this one thread by a {@link ZmtpPoller}: the poller says when the REQ can send and when either has a message,
 * and every send and receive is the non-blocking kind ({@code trySend}, {@code tryReceive}).
 */
@Command(name = "poller", mixinStandardHelpOptions = true,
        description = {"A REQ and a REP driven from one thread by ZmtpPoller with non-blocking sends and receives "
                + "(ffi-rzmq's reqrep_poll example): the REQ sends a request every --interval ms, the REP answers "
                + "it, and each step is printed."})
public final class PollerCommand implements Callable<Integer> {
    @Option(names = "--endpoint", defaultValue = "tcp://127.0.0.1:5555",
            description = "Where the REP binds and the REQ connects (default: ${DEFAULT-VALUE}).")
    String endpoint;

    @Option(names = "--count", defaultValue = "10", description = "Round trips, then exit; 0: until Ctrl-C "
            + "(default: ${DEFAULT-VALUE}).")
    int count;

    @Option(names = "--interval", defaultValue = "500", description = "Milliseconds between requests "
            + "(default: ${DEFAULT-VALUE}).")
    long intervalMillis;

    @Option(names = "--size", defaultValue = "1024", description = "Bytes per request, as the original's "
            + "payload of '3's (default: ${DEFAULT-VALUE}).")
    int size;

    PrintStream out = System.out;

    @Override
    public Integer call() throws InterruptedException {
        try (Lifetime lifetime = new Lifetime(0);
             ZmtpContext context = ZmtpContext.builder().lingerCapMillis(0).build();
             ZmtpPoller poller = new ZmtpPoller()) {
            ZmtpSocket req = context.socket(ZmtpSocketType.REQ);
            ZmtpSocket rep = context.socket(ZmtpSocketType.REP);
            // Connect before bind, as the original does: the REQ keeps trying until the REP is there.
            req.connect(endpoint);
            String bound = rep.bind(endpoint);
            out.println("poller: REP bound to " + bound + ", REQ connected; one thread polls both");
            poller.register(rep, ZmtpPoller.Interest.IN);
            String payload = "3".repeat(size);
            int sent = 0;
            int replies = 0;
            long nextSend = System.nanoTime();
            while ((count == 0 || replies < count) && !lifetime.isOver()) {
                // The REQ is polled for OUT only when a request is due, so the poll sleeps until then (the original
                // polls without waiting, in a busy loop); at most 200 ms at a time, to notice Ctrl-C.
                long untilDue = nextSend - System.nanoTime();
                boolean due = sent == replies && untilDue <= 0;
                if (due) {
                    poller.register(req, ZmtpPoller.Interest.OUT, ZmtpPoller.Interest.IN);
                } else {
                    poller.register(req, ZmtpPoller.Interest.IN);
                }
                long wait = sent == replies ? Math.max(0, untilDue) : Long.MAX_VALUE;
                poller.poll(Duration.ofNanos(Math.min(wait, 200_000_000L)));
                if (due && poller.isWritable(req)) {
                    if (req.trySend(ZmtpMessage.of("request " + (sent + 1) + " " + payload))) {
                        sent++;
                        out.println("REQ sent request " + sent + " (" + size + " B payload), non-blocking");
                        nextSend = System.nanoTime() + intervalMillis * 1_000_000L;
                    }
                }
                if (poller.isReadable(rep)) {
                    ZmtpMessage request = rep.tryReceive();
                    if (request != null) {
                        String text = request.frameString(0);
                        request.release();
                        String name = text.substring(0, text.indexOf(' ', "request ".length()));
                        out.println("REP received " + name + " (" + text.length() + " B), replying");
                        rep.trySend(ZmtpMessage.of("reply to " + name));
                    }
                }
                if (poller.isReadable(req)) {
                    ZmtpMessage reply = req.tryReceive();
                    if (reply != null) {
                        replies++;
                        out.println("REQ received [" + reply.frameString(0) + "]");
                        reply.release();
                    }
                }
            }
            out.println("poller: " + (lifetime.isOver() ? "stopped" : "done") + ", " + replies + " round trips");
            return 0;
        } catch (ZmtpSocketException.Closed e) {
            out.println("poller: stopped");
            return 0;
        }
    }
}
