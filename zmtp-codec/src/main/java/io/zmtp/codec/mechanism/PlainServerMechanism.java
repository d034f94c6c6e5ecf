package io.zmtp.codec.mechanism;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.zmtp.codec.ZmtpCommand;
import io.zmtp.codec.ZmtpMetadata;
import io.zmtp.codec.security.ZmtpAuthResult;
import io.zmtp.codec.security.ZmtpCredentials;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * PLAIN, server side: reads HELLO, asks the authenticator, WELCOMEs an allowed client, reads its INITIATE and
 * answers READY. As in libzmq, the credentials are checked before WELCOME, so a refused client learns nothing more.
 *
 * @see <a href="https://rfc.zeromq.org/spec/24/">24/ZMTP-PLAIN</a>
 */
final class PlainServerMechanism implements ZmtpMechanism {
    private enum State { EXPECT_HELLO, AUTHENTICATING, EXPECT_INITIATE, DONE }

    private final ZmtpMetadata localMetadata;
    private State state = State.EXPECT_HELLO;
    private ZmtpCredentials credentials;
    private ZmtpMetadata peerMetadata;

    PlainServerMechanism(ZmtpMetadata localMetadata) {
        this.localMetadata = localMetadata;
    }

    @Override
    public String name() {
        return PlainMechanism.NAME;
    }

    @Override
    public boolean isServer() {
        return true;
    }

    @Override
    public List<ZmtpCommand> start() {
        return Collections.emptyList();
    }

    @Override
    public List<ZmtpCommand> handle(ZmtpCommand command) {
        if (command.is(ZmtpCommand.ERROR)) {
            throw MechanismSupport.peerError(PlainMechanism.NAME, command);
        }
        if (state == State.EXPECT_HELLO && command.is(ZmtpCommand.HELLO)) {
            credentials = readHello(command.content());
            state = State.AUTHENTICATING;
            return Collections.emptyList();
        }
        if (state == State.EXPECT_INITIATE && command.is(ZmtpCommand.INITIATE)) {
            peerMetadata = MechanismSupport.metadata(command.content(), "INITIATE");
            state = State.DONE;
            return Collections.singletonList(ZmtpCommand.ready(localMetadata));
        }
        throw MechanismSupport.unexpected(PlainMechanism.NAME, command,
                state == State.EXPECT_HELLO ? "HELLO" : "INITIATE");
    }

    /** HELLO body: username length (1), username, password length (1), password, and nothing else. */
    private static ZmtpCredentials readHello(ByteBuf body) {
        int r = body.readerIndex();
        int left = body.readableBytes();
        if (left < 1) {
            throw MechanismSupport.malformed("HELLO", "no username length");
        }
        int userLength = body.getUnsignedByte(r);
        left -= 1;
        if (userLength > left - 1) {
            throw MechanismSupport.malformed("HELLO", "username length " + userLength + " with " + left
                    + " bytes left (expected: room for it and a password length)");
        }
        byte[] user = ByteBufUtil.getBytes(body, r + 1, userLength);
        left -= userLength;
        int passLength = body.getUnsignedByte(r + 1 + userLength);
        left -= 1;
        if (passLength != left) {
            throw MechanismSupport.malformed("HELLO", "password length " + passLength + " with " + left
                    + " bytes left (expected: equal)");
        }
        byte[] pass = ByteBufUtil.getBytes(body, r + 2 + userLength, passLength);
        return new ZmtpCredentials(PlainMechanism.NAME, Arrays.asList(user, pass));
    }

    @Override
    public ZmtpCredentials pendingCredentials() {
        return state == State.AUTHENTICATING ? credentials : null;
    }

    @Override
    public List<ZmtpCommand> authenticated(ZmtpAuthResult result) {
        if (state != State.AUTHENTICATING) {
            throw new IllegalStateException("PLAIN server is not authenticating (state " + state + ")");
        }
        credentials = null;
        MechanismSupport.checkAllowed(PlainMechanism.NAME, result);
        state = State.EXPECT_INITIATE;
        return Collections.singletonList(new ZmtpCommand(ZmtpCommand.WELCOME, Unpooled.EMPTY_BUFFER));
    }

    @Override
    public boolean isComplete() {
        return state == State.DONE;
    }

    @Override
    public ZmtpMetadata peerMetadata() {
        return peerMetadata;
    }
}
