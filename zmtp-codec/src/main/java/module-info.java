/**
 * The ZeroMQ wire protocol (ZMTP 3.1, 3.0, 2.0 and 1.0) as Netty handlers.
 */
module io.zmtp.codec {
    requires transitive io.netty.buffer;
    requires transitive io.netty.codec;
    requires transitive io.netty.common;
    requires transitive io.netty.transport;

    exports io.zmtp.codec;
    exports io.zmtp.codec.mechanism;
}
