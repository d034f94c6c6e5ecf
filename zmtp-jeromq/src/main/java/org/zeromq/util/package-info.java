/**
 * Helpers around messages, as JeroMQ 0.6.0's {@code org.zeromq.util} (CZMQ's {@code zdigest} and friends):
 * {@link org.zeromq.util.ZData} (printing and comparing frame data), {@link org.zeromq.util.ZDigest} (SHA-1 of
 * data and files) and {@link org.zeromq.util.ZMetadata} (name/value properties in ZMTP's metadata encoding).
 */
package org.zeromq.util;
