/**
 * JeroMQ's function types that its public API names: {@link zmq.util.function.BiFunction}, the type of
 * {@code ZPoller}'s handler functions. The rest of JeroMQ's {@code zmq.util} is absent; see {@code docs/jeromq.md}.
 */
package zmq.util.function;
