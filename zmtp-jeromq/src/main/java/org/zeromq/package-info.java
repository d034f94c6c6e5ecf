/**
 * JeroMQ 0.6.0's public API ({@code org.zeromq}) implemented on netty-zmtp's sockets, so that an application written
 * against JeroMQ runs unchanged with only its dependency changed to {@code io.zmtp:zmtp-jeromq}. What differs from
 * JeroMQ, and what is absent because it exposed JeroMQ's internals, is listed in {@code docs/jeromq.md}.
 */
package org.zeromq;
