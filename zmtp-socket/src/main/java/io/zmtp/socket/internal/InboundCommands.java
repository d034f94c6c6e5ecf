package io.zmtp.socket.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.zmtp.codec.ZmtpCommand;
import io.zmtp.codec.ZmtpMessage;

/**
 * Which commands a socket takes from its peers, after the handshake and past PING/PONG: publishers take SUBSCRIBE and
 * CANCEL, RADIO takes JOIN and LEAVE, each as a {@code 01}/{@code 00}-prefixed message in the pipe's inbound queue,
 * the form older publishers send subscriptions in; every other command is released on arrival.
 */
enum InboundCommands {
    NONE(null, null),
    SUBSCRIPTIONS(ZmtpCommand.SUBSCRIBE, ZmtpCommand.CANCEL),
    GROUPS(ZmtpCommand.JOIN, ZmtpCommand.LEAVE);

    private final String add;
    private final String remove;

    InboundCommands(String add, String remove) {
        this.add = add;
        this.remove = remove;
    }

    /**
     * {@code c} as the {@code 0x01}/{@code 0x00}-prefixed message the socket reads, if it takes that command;
     * otherwise null. Takes ownership of {@code c}.
     */
    ZmtpMessage toMessage(ZmtpCommand c) {
        boolean adds = add != null && c.is(add);
        if (!adds && (remove == null || !c.is(remove))) {
            c.release();
            return null;
        }
        ByteBuf prefix = Unpooled.wrappedBuffer(new byte[] {(byte) (adds ? 1 : 0)});
        ByteBuf body = Unpooled.wrappedBuffer(prefix, c.content().retain());
        c.release();
        return ZmtpMessage.wrap(body);
    }
}
