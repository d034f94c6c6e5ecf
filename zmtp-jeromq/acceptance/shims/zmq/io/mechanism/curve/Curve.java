package zmq.io.mechanism.curve;

import org.zeromq.ZMQ;

/** Test shim: JeroMQ's internal CURVE class, of which JeroMQ's tests only make key pairs. */
public final class Curve {
    /** A new key pair as 32-byte keys: {public, secret}. */
    public byte[][] keypair() {
        ZMQ.Curve.KeyPair pair = ZMQ.Curve.generateKeyPair();
        return new byte[][] {ZMQ.Curve.z85Decode(pair.publicKey), ZMQ.Curve.z85Decode(pair.secretKey)};
    }
}
