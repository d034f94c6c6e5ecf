package org.zeromq;

import io.zmtp.socket.ZmtpSocketOption;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** ZMQ.Socket's option methods: mapped onto netty-zmtp's options, stored, or refused. */
class SocketOptionsTest {
    private final ZMQ.Context context = ZMQ.context(1);
    private final ZMQ.Socket socket = context.socket(SocketType.DEALER);

    @AfterEach
    void term() {
        context.term();
    }

    @Test
    void mappedOptionsReachTheNettyZmtpSocket() {
        assertThat(socket.setLinger(250)).isTrue();
        assertThat(socket.getLinger()).isEqualTo(250);
        assertThat(socket.zmtpSocket().getOption(ZmtpSocketOption.LINGER)).isEqualTo(250);

        assertThat(socket.setSndHWM(10)).isTrue();
        assertThat(socket.setRcvHWM(20)).isTrue();
        assertThat(socket.zmtpSocket().getOption(ZmtpSocketOption.SNDHWM)).isEqualTo(10);
        assertThat(socket.getRcvHWM()).isEqualTo(20);
        assertThat(socket.setHWM(30)).isTrue();
        assertThat(socket.getSndHWM()).isEqualTo(30);
        assertThat(socket.getRcvHWM()).isEqualTo(30);

        socket.setIdentity("me".getBytes(StandardCharsets.UTF_8));
        assertThat(socket.getIdentity()).isEqualTo("me".getBytes(StandardCharsets.UTF_8));
        socket.setReconnectIVL(50);
        socket.setReconnectIVLMax(500);
        assertThat(socket.getReconnectIVL()).isEqualTo(50);
        assertThat(socket.getReconnectIVLMax()).isEqualTo(500);
        socket.setMaxMsgSize(1024);
        assertThat(socket.getMaxMsgSize()).isEqualTo(1024);
        socket.setHeartbeatIvl(100);
        socket.setHeartbeatTtl(2000);
        socket.setHeartbeatTimeout(300);
        assertThat(socket.getHeartbeatIvl()).isEqualTo(100);
        assertThat(socket.getHeartbeatTtl()).isEqualTo(2000);
        assertThat(socket.getHeartbeatTimeout()).isEqualTo(300);
        socket.setHandshakeIvl(1000);
        assertThat(socket.getHandshakeIvl()).isEqualTo(1000);
        socket.setImmediate(true);
        assertThat(socket.getImmediate()).isTrue();
        socket.setSendBufferSize(65536);
        assertThat(socket.getSendBufferSize()).isEqualTo(65536);
        socket.setZapDomain("global");
        assertThat(socket.getZapDomain()).isEqualTo("global");
    }

    @Test
    void anOutOfRangeValueIsFalseWithEinval() {
        assertThat(socket.setSndHWM(-5)).isFalse();
        assertThat(socket.errno()).isEqualTo(ZMQ.Error.EINVAL.getCode());
        assertThat(socket.setIdentity(new byte[300])).isFalse();
        assertThat(socket.setReceiveTimeOut(-2)).isFalse();
    }

    @Test
    void optionsThatChangeBehaviourNettyZmtpLacksAreRefusedWithEnotsup() {
        assertThat(socket.setConflate(false)).isTrue();
        assertThatThrownBy(() -> socket.setConflate(true))
                .isInstanceOfSatisfying(ZMQException.class,
                        e -> assertThat(e.getErrorCode()).isEqualTo(ZMQ.Error.ENOTSUP.getCode()));
        assertThatThrownBy(() -> socket.setReqRelaxed(true)).isInstanceOf(ZMQException.class);
        assertThatThrownBy(() -> socket.setReqCorrelate(true)).isInstanceOf(ZMQException.class);
        assertThatThrownBy(() -> socket.setProbeRouter(true)).isInstanceOf(ZMQException.class);
        assertThatThrownBy(() -> socket.setSocksProxy("127.0.0.1:1080")).isInstanceOf(ZMQException.class);
        assertThatThrownBy(() -> socket.setReconnectIVL(-1)).isInstanceOf(ZMQException.class);
    }

    @Test
    void tuningOptionsAreStoredAndReadBack() {
        assertThat(socket.setTCPKeepAlive(1)).isTrue();
        assertThat(socket.getTCPKeepAlive()).isEqualTo(1);
        assertThat(socket.setTos(4)).isTrue();
        assertThat(socket.getTos()).isEqualTo(4);
        assertThat(socket.setBacklog(10)).isTrue();
        assertThat(socket.getBacklog()).isEqualTo(10);
        assertThat(socket.setIPv6(true)).isTrue();
        assertThat(socket.isIPv6()).isTrue();
    }

    @Test
    void theMechanismFollowsTheSecurityOptions() {
        assertThat(socket.getMechanism()).isEqualTo(ZMQ.Socket.Mechanism.NULL);
        socket.setPlainUsername("admin");
        socket.setPlainPassword("secret");
        assertThat(socket.getMechanism()).isEqualTo(ZMQ.Socket.Mechanism.PLAIN);
        assertThat(socket.getPlainUsername()).isEqualTo("admin");

        ZMQ.Socket server = context.socket(SocketType.ROUTER);
        ZMQ.Curve.KeyPair keys = ZMQ.Curve.generateKeyPair();
        assertThat(server.setCurveServer(true)).isTrue();
        assertThat(server.setCurveSecretKey(keys.secretKey.getBytes(StandardCharsets.US_ASCII))).isTrue();
        assertThat(server.getMechanism()).isEqualTo(ZMQ.Socket.Mechanism.CURVE);
        assertThat(server.getCurveSecretKey()).isEmpty();
    }

    @Test
    void timeoutsAreKeptForEachCall() {
        assertThat(socket.getSendTimeOut()).isEqualTo(-1);
        socket.setSendTimeOut(10);
        assertThat(socket.getSendTimeOut()).isEqualTo(10);
    }
}
