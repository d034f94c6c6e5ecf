/**
 * The few entry points of JeroMQ's internal package {@code zmq} that applications use: {@link zmq.ZError}'s error
 * numbers and {@link zmq.ZMQ}'s constants. Everything else of JeroMQ's {@code zmq} package is absent; see
 * {@code docs/jeromq.md}.
 */
package zmq;
