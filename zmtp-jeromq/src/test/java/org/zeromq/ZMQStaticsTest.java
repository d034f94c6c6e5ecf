package org.zeromq;

import io.zmtp.codec.security.CurveKeyPair;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** JeroMQ's constants, error codes, versions and CURVE helpers. */
class ZMQStaticsTest {

    @Test
    void socketTypeNumbersAreJeromqs() {
        assertThat(ZMQ.PAIR).isEqualTo(SocketType.PAIR.type());
        assertThat(ZMQ.ROUTER).isEqualTo(6);
        assertThat(ZMQ.XREP).isEqualTo(ZMQ.ROUTER);
        assertThat(ZMQ.STREAM).isEqualTo(11);
        assertThat(SocketType.type(16)).isEqualTo(SocketType.CHANNEL);
        assertThat(ZMQ.SNDMORE).isEqualTo(2);
        assertThat(ZMQ.DONTWAIT).isEqualTo(1).isEqualTo(ZMQ.NOBLOCK);
    }

    @Test
    void eventBitsAreLibzmqs() {
        assertThat(ZMQ.EVENT_CONNECTED).isEqualTo(1);
        assertThat(ZMQ.EVENT_DISCONNECTED).isEqualTo(0x200);
        assertThat(ZMQ.HANDSHAKE_SUCCEEDED).isEqualTo(0x1000);
        assertThat(ZMQ.HANDSHAKE_FAILED_AUTH).isEqualTo(0x4000);
        assertThat(ZMQ.EVENT_ALL).isEqualTo(0xffff);
        assertThat(ZMonitor.Event.findByCode(ZMQ.EVENT_LISTENING)).isEqualTo(ZMonitor.Event.LISTENING);
        assertThat(ZMonitor.ProtocolCode.findByCode(0x11000002))
                .isEqualTo(ZMonitor.ProtocolCode.ZMQ_PROTOCOL_ERROR_ZMTP_MECHANISM_MISMATCH);
    }

    @Test
    void errorCodesAreJeromqs() {
        assertThat(ZMQ.Error.EAGAIN.getCode()).isEqualTo(35);
        assertThat(ZMQ.Error.ETERM.getCode()).isEqualTo(156384765);
        assertThat(ZMQ.Error.EFSM.getCode()).isEqualTo(156384763);
        assertThat(ZMQ.Error.findByCode(0)).isEqualTo(ZMQ.Error.NOERROR);
        assertThat(ZMQ.Error.findByCode(4)).isEqualTo(ZMQ.Error.EINTR);
        assertThatThrownBy(() -> ZMQ.Error.findByCode(12345)).isInstanceOf(IllegalArgumentException.class);
        ZMQException e = new ZMQException("boom", ZMQ.Error.ETERM.getCode());
        assertThat(e).isInstanceOf(UncheckedZMQException.class);
        assertThat(e.toString()).endsWith(": ETERM: Context was terminated");
    }

    @Test
    void theVersionIsTheLibzmqOneJeromqReports() {
        assertThat(ZMQ.getVersionString()).isEqualTo("4.1.7");
        assertThat(ZMQ.getFullVersion()).isEqualTo(ZMQ.makeVersion(4, 1, 7)).isEqualTo(40107);
    }

    @Test
    void curveKeysAreZ85AndMatchTheCodecs() {
        ZMQ.Curve.KeyPair pair = ZMQ.Curve.generateKeyPair();
        assertThat(pair.publicKey).hasSize(ZMQ.Curve.KEY_SIZE_Z85);
        assertThat(CurveKeyPair.fromZ85(pair.publicKey, pair.secretKey).publicKeyZ85()).isEqualTo(pair.publicKey);
        byte[] raw = ZMQ.Curve.z85Decode(pair.secretKey);
        assertThat(raw).hasSize(ZMQ.Curve.KEY_SIZE);
        assertThat(ZMQ.Curve.z85Encode(raw)).isEqualTo(pair.secretKey);
        // The 23/ZMTP example: 8 bytes and their Z85 form.
        byte[] hello = {(byte) 0x86, 0x4F, (byte) 0xD2, 0x6F, (byte) 0xB5, 0x59, (byte) 0xF7, 0x5B};
        assertThat(ZMQ.Curve.z85Encode(hello)).isEqualTo("HelloWorld");
    }
}
