/**
 * Not API: the machinery behind {@link io.zmtp.socket.ZmtpSocket} (pipes, queues, routing, the per-type socket
 * classes). The module does not export this package, so code on the module path cannot reach it, and on the class
 * path its public classes are public only for the other packages of this module: they change in any release without
 * notice, and the API check of a release (release/api-check.sh) leaves them out.
 */
package io.zmtp.socket.internal;
