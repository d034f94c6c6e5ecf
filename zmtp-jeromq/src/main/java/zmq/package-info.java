/**
 * The few entry points of JeroMQ's internal package {@code zmq} that applications use: {@link zmq.ZError}'s error
 * numbers and {@link zmq.ZMQ}'s constants, and in subpackages the types {@code ZPoller}'s signatures name
 * ({@code zmq.poll.PollItem}, {@code zmq.util.function.BiFunction}). Everything else of JeroMQ's {@code zmq} package
 * is absent; see {@code docs/jeromq.md}.
 */
package zmq;
