/**
 * zproto's binary encoding for JeroMQ 0.6.0's API: {@link org.zeromq.proto.ZNeedle} writes and reads values in a
 * frame; {@code ZPicture} builds and reads whole messages from a picture string.
 */
package org.zeromq.proto;
