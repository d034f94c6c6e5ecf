/**
 * The ZeroMQ wire protocol (ZMTP 3.1, 3.0, 2.0 and 1.0) as Netty handlers.
 */
module io.zmtp.codec {
    requires transitive io.netty.buffer;
    requires transitive io.netty.codec;
    requires transitive io.netty.common;
    requires transitive io.netty.transport;
    // CURVE's X25519, XSalsa20 and Poly1305.
    requires org.bouncycastle.provider;
    // The Salsa20 rounds on SIMD registers, only where the JVM runs with --add-modules jdk.incubator.vector (an
    // incubator module): SalsaVector decides, and without it the codec never links the class that uses it.
    requires static jdk.incubator.vector;
    // VectorWatch: the thread's allocation counter, to catch a core the JIT compiled without the intrinsics.
    requires jdk.management;

    exports io.zmtp.codec;
    exports io.zmtp.codec.mechanism;
    exports io.zmtp.codec.security;
}
