/**
 * ZeroMQ sockets on the ZMTP codec. {@code io.zmtp.socket.internal} is the machinery behind them and is not
 * exported.
 */
module io.zmtp.socket {
    requires transitive io.zmtp.codec;
    requires io.netty.resolver;
    // ws:// (ZWS 2.0): the HTTP upgrade and WebSocket framing.
    requires io.netty.codec.http;
    // wss://: SslContext is in the WSS_SERVER_CONTEXT and WSS_CLIENT_CONTEXT options' type.
    requires transitive io.netty.handler;
    // epoll is used when its native library loads; without the jar the sockets run on NIO.
    requires static io.netty.transport.classes.epoll;
    // io_uring, likewise: only when a context asks for it (or AUTO finds no epoll); without the jar, never loaded.
    requires static io.netty.transport.classes.io_uring;
    // DomainSocketAddress, for ipc:// on epoll and io_uring; it comes with their jars and is only touched when one runs.
    requires static io.netty.transport.unix.common;
    // Micrometer, for io.zmtp.socket.metrics only: optional, and nothing else refers to it.
    requires static micrometer.core;

    exports io.zmtp.socket;
    exports io.zmtp.socket.transport;
    exports io.zmtp.socket.metrics;
}
