package org.zeromq.proto;

import org.zeromq.ZFrame;
import org.zeromq.ZMQ;
import org.zeromq.ZMQ.Socket;
import org.zeromq.ZMQException;
import org.zeromq.ZMsg;

import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/**
 * Messages built from and read into a "picture", a string with one character per value, as JeroMQ 0.6.0's
 * {@code ZPicture} (CZMQ's {@code zsock_send}/{@code zsock_recv} and {@code zsock_bsend}/{@code zsock_brecv}).
 *
 * <p><b>Text pictures</b> ({@link #sendPicture}, {@link #recvPicture}) make one frame per value; numbers travel as
 * decimal text. Characters: {@code i} int, {@code 1}/{@code 2}/{@code 4} an int kept to its low 8/16/32 bits,
 * {@code 8} long, {@code s} String (UTF-8), {@code b} and {@code c} byte[], {@code f} ZFrame, {@code m} ZMsg (all its
 * frames; last in the picture only), {@code z} an empty frame (no argument).
 *
 * <p><b>Binary pictures</b> ({@link #sendBinaryPicture}, {@link #recvBinaryPicture}, {@link #msgBinaryPicture})
 * encode the values in one frame with {@link ZNeedle} (zproto's encoding: numbers in 1, 2, 4 or 8 bytes, {@code s}
 * a short string, {@code S} a long string, {@code b}/{@code c} a 4-byte length and the bytes), followed by one frame
 * per {@code f} and the frames of {@code m}.
 *
 * <p>Neither kind changes its arguments: frames and messages are sent as copies (JeroMQ's text picture empties the
 * ZMsg given for {@code m}, and both kinds send the caller's ZFrame objects, which a sending ZMsg destroys). Numbers
 * may be given as any {@link Number}; what is received comes back as JeroMQ returns it: {@code 1}, {@code 2},
 * {@code 4} and {@code i} as Integer, {@code 8} as Long.
 *
 * @see <a href="https://github.com/zeromq/zproto">zproto</a>
 */
public class ZPicture {
    private static final Pattern FORMAT = Pattern.compile("[i1248sbcfz]*m?");
    private static final Pattern BINARY_FORMAT = Pattern.compile("[1248sSbcf]*m?");

    /** A picture codec; it has no state, one may be shared. */
    public ZPicture() {
    }

    private static void check(Pattern format, String picture, String what) {
        if (!format.matcher(picture).matches()) {
            throw new ZMQException(picture + " is not in expected " + what + "format " + format.pattern(),
                    ZMQ.Error.EPROTO.getCode());
        }
    }

    private static Number number(Object arg) {
        return (Number) arg;
    }

    private static byte[] utf8(String s) {
        return s == null ? new byte[0] : s.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The message a binary picture makes: the encoded values in its first frame, then a copy of each {@code f}
     * frame and of the frames of {@code m} (an empty frame for a null {@code m}).
     *
     * @param picture characters of {@code 1248sSbcf}, optionally ending with {@code m}
     * @param args    one per character
     * @throws ZMQException             with EPROTO if the picture has another character
     * @throws IllegalArgumentException if an {@code s} string is longer than 255 bytes
     */
    public ZMsg msgBinaryPicture(String picture, Object... args) {
        check(BINARY_FORMAT, picture, "binary ");
        int size = 0;
        for (int i = 0; i < picture.length(); i++) {
            switch (picture.charAt(i)) {
                case '1': size += 1; break;
                case '2': size += 2; break;
                case '4': size += 4; break;
                case '8': size += 8; break;
                case 's': size += 1 + utf8((String) args[i]).length; break;
                case 'S': size += 4 + utf8((String) args[i]).length; break;
                case 'b':
                case 'c': size += 4 + ((byte[]) args[i]).length; break;
                default: break; // f and m travel as frames of their own
            }
        }
        byte[] data = new byte[size];
        ZNeedle needle = new ZNeedle(data);
        ZMsg msg = new ZMsg();
        msg.add(new ZFrame(data));
        for (int i = 0; i < picture.length(); i++) {
            Object arg = args[i];
            switch (picture.charAt(i)) {
                case '1': needle.putNumber1(number(arg).intValue()); break;
                case '2': needle.putNumber2(number(arg).intValue()); break;
                case '4': needle.putNumber4(number(arg).intValue()); break;
                case '8': needle.putNumber8(number(arg).longValue()); break;
                case 's': needle.putShortString(arg == null ? "" : (String) arg); break;
                case 'S': needle.putLongString(arg == null ? "" : (String) arg); break;
                case 'b':
                case 'c':
                    byte[] block = (byte[]) arg;
                    needle.putNumber4(block.length);
                    needle.putBlock(block, block.length);
                    break;
                case 'f': msg.add(((ZFrame) arg).duplicate()); break;
                case 'm': addCopies(msg, (ZMsg) arg); break;
                default: throw new IllegalStateException("picture checked: " + picture);
            }
        }
        return msg;
    }

    private static void addCopies(ZMsg msg, ZMsg frames) {
        if (frames == null) {
            msg.add(new ZFrame((byte[]) null));
            return;
        }
        for (ZFrame frame : frames) {
            msg.add(frame.duplicate());
        }
    }

    /**
     * Sends a binary picture as one message.
     *
     * @return true if it was queued
     * @see #msgBinaryPicture(String, Object...)
     */
    public boolean sendBinaryPicture(Socket socket, String picture, Object... args) {
        return msgBinaryPicture(picture, args).send(socket);
    }

    /**
     * Receives a binary picture: decodes the values of the first frame, then receives one frame per {@code f} and
     * the rest of the message for {@code m}.
     *
     * @return one element per picture character, or null if no message came (DONTWAIT or RCVTIMEO)
     * @throws ZMQException             with EPROTO if the picture has a character outside {@code 1248sSbcf} and
     *                                  a last {@code m}
     * @throws IllegalArgumentException if the frame holds fewer bytes than the picture needs
     */
    public Object[] recvBinaryPicture(Socket socket, String picture) {
        check(BINARY_FORMAT, picture, "binary ");
        ZFrame frame = ZFrame.recvFrame(socket);
        if (frame == null) {
            return null;
        }
        ZNeedle needle = new ZNeedle(frame);
        Object[] results = new Object[picture.length()];
        for (int i = 0; i < picture.length(); i++) {
            switch (picture.charAt(i)) {
                case '1': results[i] = needle.getNumber1(); break;
                case '2': results[i] = needle.getNumber2(); break;
                case '4': results[i] = needle.getNumber4(); break;
                case '8': results[i] = needle.getNumber8(); break;
                case 's': results[i] = needle.getString(); break;
                case 'S': results[i] = needle.getLongString(); break;
                case 'b':
                case 'c': results[i] = needle.getBlock(needle.getNumber4()); break;
                case 'f': results[i] = ZFrame.recvFrame(socket); break;
                case 'm': results[i] = ZMsg.recvMsg(socket); break;
                default: throw new IllegalStateException("picture checked: " + picture);
            }
        }
        return results;
    }

    /**
     * Sends a text picture: one frame per value.
     *
     * @param picture characters of {@code i1248sbcfz}, optionally ending with {@code m}
     * @param args    one per character but {@code z}
     * @return true if it was queued
     * @throws ZMQException with EPROTO if the picture has another character
     */
    public boolean sendPicture(Socket socket, String picture, Object... args) {
        check(FORMAT, picture, "");
        ZMsg msg = new ZMsg();
        int arg = 0;
        for (int i = 0; i < picture.length(); i++) {
            char type = picture.charAt(i);
            switch (type) {
                case 'i': msg.add(Integer.toString(number(args[arg]).intValue())); break;
                case '1': msg.add(Integer.toString(number(args[arg]).intValue() & 0xFF)); break;
                case '2': msg.add(Integer.toString(number(args[arg]).intValue() & 0xFFFF)); break;
                // JeroMQ writes the int as signed, which JeroMQ's recvPicture and CZMQ's atol both read back.
                case '4': msg.add(Integer.toString(number(args[arg]).intValue())); break;
                case '8': msg.add(Long.toString(number(args[arg]).longValue())); break;
                case 's': msg.add(new ZFrame((String) args[arg])); break;
                case 'b':
                case 'c': msg.add(new ZFrame((byte[]) args[arg])); break;
                case 'f': msg.add(((ZFrame) args[arg]).duplicate()); break;
                case 'm': addCopies(msg, (ZMsg) args[arg]); break;
                case 'z':
                    msg.add(new ZFrame((byte[]) null));
                    arg--; // no argument
                    break;
                default: throw new IllegalStateException("picture checked: " + picture);
            }
            arg++;
        }
        return msg.send(socket, false);
    }

    /**
     * Receives a text picture: one frame per character ({@code m}: the rest of the message).
     *
     * @return one element per picture character ({@code z}: an empty ZFrame), or null if no message came
     *         (DONTWAIT or RCVTIMEO)
     * @throws ZMQException           with EPROTO if the picture has another character, or a {@code z} frame is not
     *                                empty
     * @throws NumberFormatException  if a number frame is not a decimal number, as in JeroMQ
     */
    public Object[] recvPicture(Socket socket, String picture) {
        check(FORMAT, picture, "");
        Object[] elements = new Object[picture.length()];
        for (int i = 0; i < picture.length(); i++) {
            char type = picture.charAt(i);
            if (type == 'm') {
                elements[i] = ZMsg.recvMsg(socket);
                continue;
            }
            ZFrame frame = ZFrame.recvFrame(socket);
            if (frame == null) {
                if (i == 0) {
                    return null;
                }
                throw new ZMQException("picture " + picture + ": no frame for element " + i,
                        ZMQ.Error.EPROTO.getCode());
            }
            String text = type == 'b' || type == 'c' || type == 'f' || type == 'z' ? null
                    : frame.getString(StandardCharsets.UTF_8);
            switch (type) {
                case 'i': elements[i] = Integer.valueOf(text); break;
                case '1': elements[i] = (int) (Long.parseLong(text) & 0xFF); break;
                case '2': elements[i] = (int) (Long.parseLong(text) & 0xFFFF); break;
                // Signed (JeroMQ) and unsigned (CZMQ) texts both come back as the same 32 bits.
                case '4': elements[i] = (int) Long.parseLong(text); break;
                case '8': elements[i] = Long.valueOf(text); break;
                case 's': elements[i] = text; break;
                case 'b':
                case 'c': elements[i] = frame.hasData() ? frame.getData() : new byte[0]; break;
                case 'f': elements[i] = frame; break;
                case 'z':
                    if (frame.size() > 0) {
                        throw new ZMQException("zero frame is not empty", ZMQ.Error.EPROTO.getCode());
                    }
                    elements[i] = new ZFrame((byte[]) null);
                    break;
                default: throw new IllegalStateException("picture checked: " + picture);
            }
        }
        return elements;
    }
}
