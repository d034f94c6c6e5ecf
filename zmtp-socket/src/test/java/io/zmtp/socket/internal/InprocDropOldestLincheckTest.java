package io.zmtp.socket.internal;

import io.netty.buffer.Unpooled;
import io.zmtp.codec.ZmtpCommand;
import io.zmtp.codec.ZmtpMessage;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Model checking (Lincheck) of DROP_OLDEST over inproc, issue 35 item 1: an XSUB sending to an XPUB with the link
 * full and a subscription at its head, which may not be evicted. A send claims the queue to evict; the XPUB's
 * receive, finding the queue claimed, arms its wake-up and leaves; the send finds the subscription at the head, lets
 * go and drops its message. Nothing woke the XPUB, and every later send gives up the same way: it slept with
 * messages queued until its timeout. The validation, after each interleaving: a reader that found nothing and has
 * had no signal since has nothing to read.
 */
@Tag("lincheck")
public class InprocDropOldestLincheckTest {
    private final LincheckPipes.Signals readerSignals = new LincheckPipes.Signals();
    private final Pipe xsub = new Pipe(new LincheckPipes.Signals(), true, LincheckPipes.ENDPOINT, 1, 1);
    private final Pipe xpub = new Pipe(readerSignals, false, LincheckPipes.ENDPOINT, 1, 1);
    /** The XSUB's thread: messages it sent, to tell them apart. */
    private int sent;
    /** The XPUB's thread: the signal count it read before its last receive found nothing; -1 if it found some. */
    private int idleSince = -1;

    public InprocDropOldestLincheckTest() {
        xpub.inbound().readRules(true, InboundCommands.SUBSCRIPTIONS);
        LincheckPipes.join(xsub, new StubChannel(), xpub, new StubChannel());
        // The link holds SNDHWM + RCVHWM = 2: a subscription first, then a message. Full.
        xsub.writeToConnection(ZmtpCommand.subscribe(Unpooled.EMPTY_BUFFER));
        if (!xsub.offer(LincheckPipes.message(++sent)) || xsub.hasRoom()) {
            throw new IllegalStateException("the link should be full: " + xsub);
        }
    }

    /** The XSUB's send under DROP_OLDEST, as the Distributor makes it: returns whether the pipe took the message. */
    @Operation(nonParallelGroup = "xsub")
    public boolean send() {
        ZmtpMessage m = LincheckPipes.message(++sent);
        if (xsub.offer(m) || xsub.outbound().offerReplacingOldest(m)) {
            return true;
        }
        m.release();
        return false;
    }

    /** The XPUB's receive: the id of what it took (0: the subscription), or -1 for nothing (it then waits). */
    @Operation(nonParallelGroup = "xpub")
    public int receive() {
        int seq = readerSignals.count();
        ZmtpMessage m = xpub.poll();
        if (m == null) {
            idleSince = seq;
            return -1;
        }
        idleSince = -1;
        int id = m.routingId();
        m.release();
        return id;
    }

    @Validate
    public void noReaderAsleepWithInputQueued() {
        if (idleSince >= 0 && readerSignals.count() == idleSince && xpub.hasInput()) {
            throw new IllegalStateException("lost wake-up: the XPUB found nothing, had no signal since, and has input"
                    + " queued: " + xsub);
        }
    }

    @Test
    void shouldWakeTheXpubWhenAnEvictionGivesUpOnASubscriptionAtTheHead() {
        LincheckScenarios.check(LincheckScenarios.modelChecking(2, 300)
                .addCustomScenario(LincheckScenarios.parallel(getClass(), new String[] {"send"},
                        new String[] {"receive"}))
                .threads(2)
                .actorsPerThread(2)
                .verifier(AnyResultVerifier.class), getClass());
    }
}
