package io.zmtp.socket.internal;

import io.netty.channel.Channel;
import io.zmtp.codec.ZmtpHandshakeSuccessEvent;

/**
 * One end of an inproc connection, as its hello carries it to the other ({@code InprocTransport.LOCAL_END}): the
 * pipe behind it and its channel. The two ends meet on the inproc thread: the first whose handshake is done waits
 * ({@link #arrived}), the second joins both ({@link InprocLink#join}).
 */
final class InprocEnd {
    final Pipe pipe;
    final Channel channel;
    /** The inproc thread only: this end's handshake, once done. */
    ZmtpHandshakeSuccessEvent arrived;
    /** The inproc thread only: both sockets have the connection (CONNECTED was told). */
    boolean joined;

    InprocEnd(Pipe pipe, Channel channel) {
        this.pipe = pipe;
        this.channel = channel;
    }
}
