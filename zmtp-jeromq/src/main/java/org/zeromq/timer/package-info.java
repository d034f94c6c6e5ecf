/**
 * Timers for application loops, as JeroMQ 0.6.0's {@code org.zeromq.timer}: {@link org.zeromq.timer.ZTimer}
 * (repeating timers), {@link org.zeromq.timer.ZTicket} (one-shot tickets, cheap to reset by the thousand) and
 * {@link org.zeromq.timer.ZTicker} (both). None of them has a thread: the application asks how long it may wait
 * ({@code timeout()}), waits (in a poll, usually), and calls {@code execute()}, which runs the handlers that are due
 * on the calling thread. None of them is thread-safe.
 */
package org.zeromq.timer;
