/**
 * JeroMQ's poll item, {@link zmq.poll.PollItem}, the type {@code ZPoller.ItemHolder.item()} returns: what an item
 * polls (a socket or a java.nio channel) and for which events. The pollers themselves are in {@code org.zeromq}.
 */
package zmq.poll;
