package io.zmtp.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.DefaultByteBufHolder;
import io.netty.buffer.Unpooled;

import java.nio.charset.StandardCharsets;

/**
 * A ZMTP 3.x command: a name of 1 to 255 ASCII letters and a body ({@link #content()}, the bytes after the name).
 * Reference-counted through its body; whoever takes it off the pipeline releases it.
 *
 * <p>Written to a connection, {@link #SUBSCRIBE} and {@link #CANCEL} commands go out as commands to ZMTP 3.1 peers
 * and as {@code 0x01}/{@code 0x00}-prefixed messages to older peers, so socket code never needs to know the
 * peer's version.
 *
 * @see <a href="https://rfc.zeromq.org/spec/23/">23/ZMTP (ZMTP 3.0), "Commands"</a>
 * <p>JOIN and LEAVE (RADIO/DISH) go out as commands to every ZMTP 3.x peer, as libzmq sends them.
 *
 * @see <a href="https://rfc.zeromq.org/spec/37/">37/ZMTP (ZMTP 3.1), SUBSCRIBE, CANCEL, PING, PONG</a>
 * @see <a href="https://rfc.zeromq.org/spec/48/">48/RADIO-DISH, JOIN and LEAVE</a>
 */
public final class ZmtpCommand extends DefaultByteBufHolder {
    public static final String READY = "READY";
    public static final String ERROR = "ERROR";
    public static final String PING = "PING";
    public static final String PONG = "PONG";
    public static final String SUBSCRIBE = "SUBSCRIBE";
    public static final String CANCEL = "CANCEL";
    /** rfc 48, carried by ZMTP 3.x: a DISH joins a group (the body, 0-255 bytes). libzmq sends it to 3.0 peers too. */
    public static final String JOIN = "JOIN";
    /** rfc 48: a DISH leaves a group. */
    public static final String LEAVE = "LEAVE";
    public static final String HELLO = "HELLO";
    public static final String WELCOME = "WELCOME";
    public static final String INITIATE = "INITIATE";
    public static final String MESSAGE = "MESSAGE";

    private final String name;

    public ZmtpCommand(String name, ByteBuf content) {
        super(content);
        int length = name.length();
        if (length == 0 || length > 255) {
            throw new IllegalArgumentException("command name length: " + length + " (expected: 1..255)");
        }
        this.name = name;
    }

    public String name() {
        return name;
    }

    /** Whether this command has the given name (exact, as libzmq compares). */
    public boolean is(String commandName) {
        return name.equals(commandName);
    }

    /** READY carrying {@code metadata}. */
    public static ZmtpCommand ready(ZmtpMetadata metadata) {
        ByteBuf body = Unpooled.buffer(metadata.encodedLength());
        metadata.encode(body);
        return new ZmtpCommand(READY, body);
    }

    /** ERROR with a reason of at most 255 bytes (longer reasons are cut). */
    public static ZmtpCommand error(String reason) {
        byte[] r = reason.getBytes(StandardCharsets.US_ASCII);
        int n = Math.min(r.length, 255);
        ByteBuf body = Unpooled.buffer(1 + n);
        body.writeByte(n).writeBytes(r, 0, n);
        return new ZmtpCommand(ERROR, body);
    }

    /** PING with a TTL in deciseconds (0 = none) and a context of at most 16 bytes. */
    public static ZmtpCommand ping(int ttlDeciseconds, byte[] context) {
        if (ttlDeciseconds < 0 || ttlDeciseconds > 0xFFFF) {
            throw new IllegalArgumentException("ttl: " + ttlDeciseconds + " (expected: 0..65535)");
        }
        if (context.length > ZmtpConstants.MAX_PING_CONTEXT_LENGTH) {
            throw new IllegalArgumentException("ping context length: " + context.length + " (expected: <= 16)");
        }
        ByteBuf body = Unpooled.buffer(2 + context.length);
        body.writeShort(ttlDeciseconds).writeBytes(context);
        return new ZmtpCommand(PING, body);
    }

    /** PONG echoing {@code context}. */
    public static ZmtpCommand pong(ByteBuf context) {
        return new ZmtpCommand(PONG, context);
    }

    /** SUBSCRIBE to {@code topic}; the command takes ownership of the buffer. */
    public static ZmtpCommand subscribe(ByteBuf topic) {
        return new ZmtpCommand(SUBSCRIBE, topic);
    }

    /** CANCEL a subscription to {@code topic}; the command takes ownership of the buffer. */
    public static ZmtpCommand cancel(ByteBuf topic) {
        return new ZmtpCommand(CANCEL, topic);
    }

    /** JOIN {@code group} (RADIO/DISH); the command takes ownership of the buffer. */
    public static ZmtpCommand join(ByteBuf group) {
        return new ZmtpCommand(JOIN, group);
    }

    /** LEAVE {@code group} (RADIO/DISH); the command takes ownership of the buffer. */
    public static ZmtpCommand leave(ByteBuf group) {
        return new ZmtpCommand(LEAVE, group);
    }

    /** The reason text of an ERROR command. */
    public String errorReason() {
        ByteBuf c = content();
        if (!c.isReadable()) {
            return "";
        }
        int n = Math.min(c.getUnsignedByte(c.readerIndex()), c.readableBytes() - 1);
        return c.toString(c.readerIndex() + 1, n, StandardCharsets.US_ASCII);
    }

    @Override
    public ZmtpCommand replace(ByteBuf content) {
        return new ZmtpCommand(name, content);
    }

    @Override
    public ZmtpCommand copy() {
        return (ZmtpCommand) super.copy();
    }

    @Override
    public ZmtpCommand duplicate() {
        return (ZmtpCommand) super.duplicate();
    }

    @Override
    public ZmtpCommand retainedDuplicate() {
        return (ZmtpCommand) super.retainedDuplicate();
    }

    @Override
    public ZmtpCommand retain() {
        super.retain();
        return this;
    }

    @Override
    public ZmtpCommand retain(int increment) {
        super.retain(increment);
        return this;
    }

    @Override
    public ZmtpCommand touch() {
        super.touch();
        return this;
    }

    @Override
    public ZmtpCommand touch(Object hint) {
        super.touch(hint);
        return this;
    }

    @Override
    public String toString() {
        return "ZmtpCommand{" + name + ", " + content().readableBytes() + " B}";
    }
}
