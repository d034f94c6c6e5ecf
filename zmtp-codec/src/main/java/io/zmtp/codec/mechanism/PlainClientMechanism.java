package io.zmtp.codec.mechanism;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.zmtp.codec.ZmtpCommand;
import io.zmtp.codec.ZmtpMetadata;

import java.util.Collections;
import java.util.List;

/**
 * PLAIN, client side: HELLO with the credentials, INITIATE with our metadata once WELCOMEd, then the server's READY.
 *
 * @see <a href="https://rfc.zeromq.org/spec/24/">24/ZMTP-PLAIN</a>
 */
final class PlainClientMechanism implements ZmtpMechanism {
    private enum State { EXPECT_WELCOME, EXPECT_READY, DONE }

    private final byte[] username;
    private final byte[] password;
    private final ZmtpMetadata localMetadata;
    private State state = State.EXPECT_WELCOME;
    private ZmtpMetadata peerMetadata;

    PlainClientMechanism(byte[] username, byte[] password, ZmtpMetadata localMetadata) {
        this.username = username;
        this.password = password;
        this.localMetadata = localMetadata;
    }

    @Override
    public String name() {
        return PlainMechanism.NAME;
    }

    @Override
    public boolean isServer() {
        return false;
    }

    @Override
    public List<ZmtpCommand> start() {
        ByteBuf body = Unpooled.buffer(2 + username.length + password.length);
        body.writeByte(username.length).writeBytes(username).writeByte(password.length).writeBytes(password);
        return Collections.singletonList(new ZmtpCommand(ZmtpCommand.HELLO, body));
    }

    @Override
    public List<ZmtpCommand> handle(ZmtpCommand command) {
        if (command.is(ZmtpCommand.ERROR)) {
            throw MechanismSupport.peerError(PlainMechanism.NAME, command);
        }
        if (state == State.EXPECT_WELCOME && command.is(ZmtpCommand.WELCOME)) {
            if (command.content().isReadable()) {
                throw MechanismSupport.malformed("WELCOME", command.content().readableBytes()
                        + " bytes after the name (expected: none)");
            }
            state = State.EXPECT_READY;
            ByteBuf body = Unpooled.buffer(localMetadata.encodedLength());
            localMetadata.encode(body);
            return Collections.singletonList(new ZmtpCommand(ZmtpCommand.INITIATE, body));
        }
        if (state == State.EXPECT_READY && command.is(ZmtpCommand.READY)) {
            peerMetadata = MechanismSupport.metadata(command.content(), "READY");
            state = State.DONE;
            return Collections.emptyList();
        }
        throw MechanismSupport.unexpected(PlainMechanism.NAME, command,
                state == State.EXPECT_WELCOME ? "WELCOME or ERROR" : "READY or ERROR");
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
