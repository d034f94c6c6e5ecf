package org.zeromq.timer;

/**
 * What a {@link ZTimer} or {@link ZTicket} runs when it is due: {@link #time} gets the arguments given when the
 * timer or ticket was added.
 *
 * <p>JeroMQ's interface extends its internal {@code zmq.util.Timers.Handler}; this one stands alone, with the same
 * method, so lambdas and implementations written for JeroMQ compile unchanged.
 */
@FunctionalInterface
public interface TimerHandler {
    /**
     * Runs the action, on the thread that called {@code execute()}.
     *
     * @param args the arguments given to {@code add}, never null (empty when none were given)
     */
    void time(Object... args);
}
