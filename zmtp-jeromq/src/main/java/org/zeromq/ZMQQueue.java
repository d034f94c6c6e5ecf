package org.zeromq;

/** A queue device: {@link ZMQ#proxy} between two sockets, run on the thread that calls {@link #run()}. */
public class ZMQQueue implements Runnable {
    private final ZMQ.Socket inSocket;
    private final ZMQ.Socket outSocket;

    /** A queue from {@code inSocket} to {@code outSocket} ({@code context} is not used). */
    public ZMQQueue(ZMQ.Context context, ZMQ.Socket inSocket, ZMQ.Socket outSocket) {
        this.inSocket = inSocket;
        this.outSocket = outSocket;
    }

    /** Passes messages both ways until a socket closes (its context terminated). */
    @Override
    public void run() {
        ZMQ.proxy(inSocket, outSocket, null);
    }
}
