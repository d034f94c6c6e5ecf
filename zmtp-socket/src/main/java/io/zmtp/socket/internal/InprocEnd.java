package io.zmtp.socket.internal;

import io.netty.channel.Channel;

/**
 * What one end of an inproc connection tells the other in its hello ({@code InprocTransport.LOCAL_END}): the pipe
 * behind it and the channel it is on, so that the peer can join its outbound queue to that pipe ({@link InprocLink}).
 */
final class InprocEnd {
    final Pipe pipe;
    final Channel channel;

    InprocEnd(Pipe pipe, Channel channel) {
        this.pipe = pipe;
        this.channel = channel;
    }
}
